import type { SegmentProvenance } from './types.ts';

/**
 * A discovered segment's optional fields as GeoJSON properties (snake_case,
 * as a catalog file writes them). Declared here, without zod, so the packed
 * index can read them back without loading the GeoJSON schema; the schema in
 * `geojson.ts` validates the same names.
 */
export interface OptionalProperties {
  kind?: 'climb' | 'stretch' | undefined;
  max_grade_pct?: number | undefined;
  ranked_by?: string | undefined;
  osm_ways?: number[] | undefined;
  osm_timestamp?: string | null | undefined;
  osm_source?: string | undefined;
  elevation_source?: string | undefined;
}

/** The catalog's camelCase optional fields from their properties; absent ones stay absent. */
export function optionalFieldsOf(p: OptionalProperties): {
  kind?: 'climb' | 'stretch';
  maxGradePct?: number;
  rankedBy?: string;
  provenance?: SegmentProvenance;
} {
  return {
    ...(p.kind === undefined ? {} : { kind: p.kind }),
    ...(p.max_grade_pct === undefined ? {} : { maxGradePct: p.max_grade_pct }),
    ...(p.ranked_by === undefined ? {} : { rankedBy: p.ranked_by }),
    ...(p.osm_ways === undefined
      ? {}
      : {
          provenance: {
            osmWayIds: p.osm_ways,
            osmTimestamp: p.osm_timestamp ?? null,
            osmSource: p.osm_source ?? 'OpenStreetMap',
            elevationSource: p.elevation_source ?? 'unknown',
          },
        }),
  };
}
