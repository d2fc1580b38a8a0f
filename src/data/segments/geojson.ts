import * as z from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { polylineLengthM } from './segment-geometry.ts';
import { optionalFieldsOf } from './optional-fields.ts';
import type { Segment } from './types.ts';

/** Longest segment a catalog may hold: the Taiwan KOM climb is about 105 km, so 500 km is never real. */
const MAX_DISTANCE_M = 500_000;

/** `[lon, lat]`, optionally followed by an elevation GeoJSON allows and we ignore. */
const PositionSchema = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)], z.number());

/** Feature properties as written in a catalog file (snake_case, like the public API's fields). */
export const SegmentPropertiesSchema = z
  .object({
    id: z
      .string()
      .max(100)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug such as "fr-alpe-d-huez"'),
    name: z.string().trim().min(1).max(200),
    aliases: z.array(z.string().trim().min(1).max(200)).default([]),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case, e.g. "FR"'),
    distance_m: z.number().positive().max(MAX_DISTANCE_M),
    average_grade_pct: z.number().min(-40).max(40),
    elevation_gain_m: z.number().min(0).max(10_000),
    popularity_rank: z.number().int().min(1),
    source: z.string().trim().min(1),
    license: z.string().trim().min(1),
    kind: z.enum(['climb', 'stretch']).optional(),
    max_grade_pct: z.number().min(-40).max(60).optional(),
    ranked_by: z.string().trim().min(1).max(200).optional(),
    osm_ways: z.array(z.int().positive()).min(1).optional(),
    osm_timestamp: z.string().max(40).nullable().optional(),
    osm_source: z.string().max(300).optional(),
    elevation_source: z.string().max(300).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.elevation_gain_m > p.distance_m * 0.4) {
      ctx.addIssue({
        code: 'custom',
        path: ['elevation_gain_m'],
        message: `${p.elevation_gain_m} m of climbing over ${p.distance_m} m is steeper than 40 %`,
      });
    }
    // The net rise (grade × distance) cannot exceed the total climbing, give or take rounding.
    const netRiseM = (p.average_grade_pct / 100) * p.distance_m;
    if (netRiseM > p.elevation_gain_m * 1.15 + 20) {
      ctx.addIssue({
        code: 'custom',
        path: ['average_grade_pct'],
        message: `${p.average_grade_pct} % over ${p.distance_m} m rises ${Math.round(netRiseM)} m, more than elevation_gain_m (${p.elevation_gain_m} m)`,
      });
    }
  });

/** One catalog entry: a LineString in riding order. */
export const SegmentFeatureSchema = z.object({
  type: z.literal('Feature'),
  geometry: z.object({
    type: z.literal('LineString'),
    coordinates: z
      .array(PositionSchema)
      .min(2, 'a segment needs at least 2 points')
      .refine((c) => polylineLengthM(toPolyline(c)) > 0, 'all points are the same place'),
  }),
  properties: SegmentPropertiesSchema,
});

/** The file's outer shape only: features are then checked one by one so errors can name them. */
const EnvelopeSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.unknown()),
});

export type SegmentFeature = z.infer<typeof SegmentFeatureSchema>;

/** Thrown for any invalid catalog; the message lists every problem found, naming feature and field. */
export class SegmentCatalogError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], prefix = 'Invalid segment catalog') {
    super(`${prefix}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'SegmentCatalogError';
    this.problems = problems;
  }
}

function toPolyline(coordinates: readonly (readonly number[])[]): LatLon[] {
  return coordinates.map(([lon = Number.NaN, lat = Number.NaN]) => ({ lat, lon }));
}

function describeIssues(error: z.ZodError, label: string): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${label}${path === '' ? '' : ` ${path}`}: ${issue.message}`;
  });
}

function featureLabel(index: number, raw: unknown): string {
  const id = (raw as { properties?: { id?: unknown } } | null)?.properties?.id;
  return typeof id === 'string' ? `feature ${index} (id "${id}")` : `feature ${index}`;
}

/** Turns a validated feature into the catalog's camelCase record. */
export function featureToSegment(feature: SegmentFeature): Segment {
  const p = feature.properties;
  return {
    id: p.id,
    name: p.name,
    aliases: p.aliases,
    countryCode: p.country,
    polyline: toPolyline(feature.geometry.coordinates),
    distanceM: p.distance_m,
    averageGradePct: p.average_grade_pct,
    elevationGainM: p.elevation_gain_m,
    popularityRank: p.popularity_rank,
    source: p.source,
    license: p.license,
    ...optionalFieldsOf(p),
  };
}

/** The inverse of {@link featureToSegment}, for writing catalogs (import, benchmarks). */
export function segmentToFeature(segment: Segment): SegmentFeature {
  return {
    type: 'Feature',
    properties: {
      id: segment.id,
      name: segment.name,
      aliases: [...segment.aliases],
      country: segment.countryCode,
      distance_m: segment.distanceM,
      average_grade_pct: segment.averageGradePct,
      elevation_gain_m: segment.elevationGainM,
      popularity_rank: segment.popularityRank,
      source: segment.source,
      license: segment.license,
      ...(segment.kind === undefined ? {} : { kind: segment.kind }),
      ...(segment.maxGradePct === undefined ? {} : { max_grade_pct: segment.maxGradePct }),
      ...(segment.rankedBy === undefined ? {} : { ranked_by: segment.rankedBy }),
      ...(segment.provenance === undefined
        ? {}
        : {
            osm_ways: [...segment.provenance.osmWayIds],
            osm_timestamp: segment.provenance.osmTimestamp,
            osm_source: segment.provenance.osmSource,
            elevation_source: segment.provenance.elevationSource,
          }),
    },
    geometry: { type: 'LineString', coordinates: segment.polyline.map((p) => [p.lon, p.lat]) },
  };
}

/**
 * Serialises features as tidy JSON with one `[lon, lat]` pair per line, so a
 * catalog stays readable and diffs line by line (the layout Prettier keeps).
 */
export function formatFeatureCollection(features: readonly unknown[]): string {
  if (features.length === 0) return `${COLLECTION_HEAD}]\n}\n`.replace('[\n]', '[]');
  return `${COLLECTION_HEAD}${features.map(formatFeature).join(',\n')}\n${COLLECTION_TAIL}`;
}

/** What `JSON.stringify({ type: 'FeatureCollection', features }, null, 2)` writes around the features. */
export const COLLECTION_HEAD = '{\n  "type": "FeatureCollection",\n  "features": [\n';
export const COLLECTION_TAIL = '  ]\n}\n';

/** One feature as it stands inside a formatted collection: indented by four, a `[lon, lat]` pair a line. */
export function formatFeature(feature: unknown): string {
  const text = JSON.stringify(feature, null, 2)
    .replace(/\[\s+(-?[\d.eE+-]+),\s+(-?[\d.eE+-]+)\s+\]/g, '[$1, $2]')
    .replace(/\n/g, '\n    ');
  return `    ${text}`;
}

/**
 * Validates a parsed catalog file and returns its segments. Every feature is
 * checked and every problem reported at once, so an operator fixing a file by
 * hand sees all of them in one run rather than one per restart. `prefix`
 * heads the error message, so callers can name the file.
 */
export function parseSegmentCollection(json: unknown, prefix?: string): Segment[] {
  const envelope = EnvelopeSchema.safeParse(json);
  if (!envelope.success) throw new SegmentCatalogError(describeIssues(envelope.error, 'collection'), prefix);
  const problems: string[] = [];
  const segments: Segment[] = [];
  const firstIndexById = new Map<string, number>();
  envelope.data.features.forEach((raw, index) => {
    const label = featureLabel(index, raw);
    const parsed = SegmentFeatureSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...describeIssues(parsed.error, label));
      return;
    }
    const { id } = parsed.data.properties;
    const first = firstIndexById.get(id);
    if (first !== undefined) {
      problems.push(`${label}: duplicate id, already used by feature ${first}`);
      return;
    }
    firstIndexById.set(id, index);
    segments.push(featureToSegment(parsed.data));
  });
  if (problems.length > 0) throw new SegmentCatalogError(problems, prefix);
  return segments;
}
