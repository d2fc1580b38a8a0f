/**
 * Which catalog segments an answer about a place lists, for both surfaces
 * (`find_tailwind_segments` and `GET /v1/segments`): those within the radius,
 * best-known first; with none there, the nearest few beyond it that are
 * still a ride from the place.
 */
import type { LatLon } from '../core/bearing.ts';
import type { NearbySegment, SegmentCatalog } from '../data/segments/types.ts';

/** How many catalog segments beyond the radius an empty answer lists. */
export const NEAREST_BEYOND_RADIUS = 3;

/**
 * How far "nearest beyond the radius" reaches: 300 km, a long day's drive
 * there and back for a ride. A segment further away is no advice for a
 * ride from the place (Haleakalā is not "near" Tokyo); the answer then says
 * so and gives the headings only.
 */
export const RIDE_REACH_M = 300_000;

export interface SegmentsAround {
  /** Within the radius, in the catalog's order. */
  readonly found: readonly NearbySegment[];
  /** With none found: the nearest beyond the radius within ride reach (maybe none); otherwise null. */
  readonly beyond: readonly NearbySegment[] | null;
}

export function segmentsAround(
  catalog: Pick<SegmentCatalog, 'near' | 'nearest'>,
  point: LatLon,
  radiusM: number,
  limit: number,
): SegmentsAround {
  const found = catalog.near(point, radiusM, limit);
  const beyond =
    found.length === 0
      ? catalog.nearest(point, NEAREST_BEYOND_RADIUS).filter((n) => n.distanceM <= RIDE_REACH_M)
      : null;
  return { found, beyond };
}

/** The segments listed: those found, or else those beyond. */
export function listedOf(around: SegmentsAround): readonly NearbySegment[] {
  return around.found.length > 0 ? around.found : (around.beyond ?? []);
}
