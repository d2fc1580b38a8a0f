/**
 * Which catalog segments an answer about a place lists, for both surfaces
 * (`find_tailwind_segments` and `GET /v1/segments`): those within the radius,
 * best-known first; with none there, the nearest few beyond it that are
 * still a ride from the place.
 */
import type { LatLon } from '../core/bearing.ts';
import type { NearbySegment, SegmentCatalog } from '../data/segments/types.ts';

/** The largest radius a search reaches, also across a region named alone. */
export const MAX_RADIUS_M = 100_000;

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

/**
 * The radius searched: as asked, but across a region named alone ("Andalusia",
 * "Dolomites") up to {@link MAX_RADIUS_M}, so the answer lists its best-known segments
 * by rank across it rather than only those near its middle, which may be
 * empty country. Islands and lakes keep the radius asked (their radius_m is a
 * hint): a lake's shore and an island's roads lie around their point anyway.
 */
export function searchRadiusM(asked: number, area: { kind: string; radius_m: number } | null): number {
  return area?.kind === 'region' ? Math.max(asked, Math.min(area.radius_m, MAX_RADIUS_M)) : asked;
}

/**
 * Where discovery is off (the offline default), an empty answer says why the
 * roads here have no segments yet rather than leaving the rider to guess.
 */
export const OFFLINE_MAPPING =
  'Discovery is off on this server: it has segments only where its catalog and shipped map data reach.';
