import type { LatLon } from '../../core/bearing.ts';

/** A road segment or climb, in the direction it is ridden. */
export interface Segment {
  /** Stable slug, e.g. `fr-alpe-d-huez`. */
  readonly id: string;
  readonly name: string;
  readonly aliases: readonly string[];
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countryCode: string;
  /** Points in riding order, at least two. */
  readonly polyline: readonly LatLon[];
  readonly distanceM: number;
  readonly averageGradePct: number;
  readonly elevationGainM: number;
  /** 1 = most ridden in the catalog; a curated rank, never an effort count. */
  readonly popularityRank: number;
  /** How the entry was made, in plain words. */
  readonly source: string;
  /** Licence of the entry's data. */
  readonly license: string;
  /** Discovered segments: a climb or a flat/rolling stretch. Hand-traced entries leave it out. */
  readonly kind?: 'climb' | 'stretch';
  /** Steepest 100 m, percent, where the heights along the real road are known. */
  readonly maxGradePct?: number;
  /** What the rank rests on, in plain words ("named pass, climb size"); hand-traced ranks are editorial. */
  readonly rankedBy?: string;
  /** Where a discovered segment's line and figures came from. */
  readonly provenance?: SegmentProvenance;
}

/** The OSM ways and data behind a discovered segment, kept with it (ODbL asks that derived data say its source). */
export interface SegmentProvenance {
  readonly osmWayIds: readonly number[];
  /** The OSM data's timestamp, ISO 8601, when known. */
  readonly osmTimestamp: string | null;
  readonly osmSource: string;
  readonly elevationSource: string;
}

/** A segment found near a point, with the distance from the point to its start. */
export interface NearbySegment {
  readonly segment: Segment;
  readonly distanceM: number;
}

/** Where segments come from: the embedded catalog, or an operator's import. */
export interface SegmentCatalog {
  readonly size: number;
  get(id: string): Segment | undefined;
  /** Segments whose start lies within `radiusM`, most popular first, at most `limit`. */
  near(point: LatLon, radiusM: number, limit: number): readonly NearbySegment[];
  /** The `limit` segments whose start is closest to the point, at any distance, closest first. */
  nearest(point: LatLon, limit: number): readonly NearbySegment[];
  /** Segments whose name or an alias matches the folded query exactly, most popular first. */
  findByName(query: string): readonly Segment[];
}
