/**
 * A rider's own segment as the tools and the alert job use it: the same
 * {@link Segment} shape as a catalog entry (so windows, reports and record
 * estimates run unchanged on it), plus who owns it and the elevation of each
 * point when the rider's file had one.
 */
import type { LatLon } from '../../core/bearing.ts';
import type { Segment } from './types.ts';

/**
 * Own segments have no country (nothing in a GPX file says which): `ZZ` is
 * the code ISO 3166 leaves for user assignment and CLDR uses for an unknown
 * region, so the field keeps its two-letter form.
 */
export const OWN_SEGMENT_COUNTRY = 'ZZ';

export interface OwnSegment extends Segment {
  readonly own: true;
  readonly ownerId: string;
  /** Metres per polyline point; null where the file had none. */
  readonly elevationsM: readonly (number | null)[];
}

/** The stored record, as the store's repository returns it (structurally: data never imports the store). */
export interface OwnSegmentRecord {
  readonly id: string;
  readonly name: string;
  readonly points: readonly (LatLon & { readonly ele?: number })[];
  readonly distanceM: number;
  readonly gainM: number;
  readonly gradePct: number;
}

export function ownSegmentFrom(record: OwnSegmentRecord, ownerId: string): OwnSegment {
  return {
    id: record.id,
    name: record.name,
    aliases: [],
    countryCode: OWN_SEGMENT_COUNTRY,
    polyline: record.points.map((p) => ({ lat: p.lat, lon: p.lon })),
    distanceM: record.distanceM,
    averageGradePct: record.gradePct,
    elevationGainM: record.gainM,
    // Not ranked: rider answers show null for it (riderSegmentFacts in src/mcp/tools/rider/watch-entry.ts).
    popularityRank: 1,
    source: "The rider's own upload",
    license: 'Private to the rider',
    own: true,
    ownerId,
    elevationsM: record.points.map((p) => p.ele ?? null),
  };
}

export function isOwnSegment(segment: Segment): segment is OwnSegment {
  return (segment as Partial<OwnSegment>).own === true;
}
