/**
 * Which catalog segments an answer about a place lists, for both surfaces
 * (`find_tailwind_segments` and `GET /v1/segments`): those within the radius,
 * best-known first; with none there, the nearest few beyond it that are
 * still a ride from the place. Also what the answer says about the mapping
 * of the roads there, and which forecast points it reads, so both surfaces
 * list the same segments judged on the same forecast.
 */
import type { LatLon } from '../core/bearing.ts';
import { NEAREST_BEYOND_RADIUS, RIDE_REACH_M } from '../core/place-list-bounds.ts';
import type { LiveCatalog } from '../data/discovery/live-catalog.ts';
import { bearingOf, endOf, forecastPointOf, startOf } from '../data/segments/segment-geometry.ts';
import type { NearbySegment, Segment, SegmentCatalog } from '../data/segments/types.ts';
import { segmentTimeZone } from '../data/time-zone/zone-at.ts';
import type { ResolvedPlace } from './place.ts';

/** The largest radius a search reaches, also across a region named alone. */
export const MAX_RADIUS_M = 100_000;

/** The list's bounds beyond the radius (`src/core/place-list-bounds.ts`), as the MCP schemas and docs read them. */
export { NEAREST_BEYOND_RADIUS, RIDE_REACH_M };

export interface SegmentsAround {
  /** Within the radius, in the catalog's order. */
  readonly found: readonly NearbySegment[];
  /** With none found: the nearest beyond the radius within ride reach (maybe none); otherwise null. */
  readonly beyond: readonly NearbySegment[] | null;
}

/**
 * `limit` segments at most within the radius; with none there, `beyond`
 * at most of the nearest outside it (the MCP tool lists three whatever its
 * limit, the REST list no more than its limit).
 */
export function segmentsAround(
  catalog: Pick<SegmentCatalog, 'near' | 'nearest'>,
  point: LatLon,
  radiusM: number,
  limit: number,
  beyond = NEAREST_BEYOND_RADIUS,
): SegmentsAround {
  const found = catalog.near(point, radiusM, limit);
  return {
    found,
    beyond:
      found.length === 0 ? catalog.nearest(point, beyond).filter((n) => n.distanceM <= RIDE_REACH_M) : null,
  };
}

/** The segments listed: those found, or else those beyond. */
export function listedOf(around: SegmentsAround): readonly NearbySegment[] {
  return around.found.length > 0 ? around.found : (around.beyond ?? []);
}

/**
 * The radius searched: as asked, but across an area named alone (a region such as "Andalusia", a
 * mountain range such as "Pyrenees", an island such as "Tenerife", a lake such as "Lake Garda") its
 * own extent, up to {@link MAX_RADIUS_M}, so the answer lists its best-known segments across it
 * rather than only those near its middle, which may be empty country, sea or water. Until 1.7 only
 * regions were widened, and an island's answer told the caller to pass its radius by hand.
 */
export function searchRadiusM(asked: number, area: { kind: string; radius_m: number } | null): number {
  return area ? Math.max(asked, Math.min(area.radius_m, MAX_RADIUS_M)) : asked;
}

/**
 * Where discovery is off (the offline default), an empty answer says why the
 * roads here have no segments yet rather than leaving the rider to guess.
 */
export const OFFLINE_MAPPING =
  'Discovery is off on this server: it has segments only where its catalog and shipped map data reach.';

/**
 * Where a segment lies, as every answer about it says it: its ends, its
 * start-to-end bearing and the zone whose clock its times are read on (at
 * its start). Handed over with the segment by the use cases, so a surface
 * words it without reading the segment's geometry or the zone table itself.
 */
export interface SegmentLocation {
  readonly start: LatLon;
  readonly end: LatLon;
  /** Degrees from north, start to end, unrounded (0 for a loop). */
  readonly bearingDeg: number;
  readonly timeZone: string;
}

/** The {@link SegmentLocation} of a catalog segment. */
export function locationOf(segment: Segment): SegmentLocation {
  return {
    start: startOf(segment),
    end: endOf(segment),
    bearingDeg: bearingOf(segment),
    timeZone: segmentTimeZone(segment),
  };
}

/** What a search around a place reads: the catalog, and discovery where the server runs it. */
export interface AroundParts {
  readonly catalog: SegmentCatalog;
  readonly discovery?: Pick<LiveCatalog, 'prepare'> | undefined;
}

/** What a search around a place asks: the radius and counts of {@link segmentsAround}. */
export interface AroundAsked {
  readonly radiusM: number;
  readonly limit: number;
  /** Most segments beyond the radius when none lies within it ({@link NEAREST_BEYOND_RADIUS} if not given). */
  readonly beyond?: number;
}

/** The segments an answer about a place lists, with what it says of the mapping there. */
export interface PlaceSegments extends SegmentsAround {
  /** The point searched around. */
  readonly point: LatLon;
  /** The radius searched ({@link searchRadiusM}). */
  readonly radiusM: number;
  /** The segments listed ({@link listedOf}). */
  readonly listed: readonly NearbySegment[];
  /** Discovery's sentence about the area; with discovery off and nothing within the radius, why; else null. */
  readonly mapping: string | null;
  /**
   * The points whose forecast the answer reads, in one request: each listed
   * segment's, in order, then the place's own when none lies within the
   * radius (the tool's headings are judged on it, and the REST list's
   * forecast facts include it, so both say the same `issued_at` and `stale`).
   */
  readonly forecastPoints: readonly LatLon[];
}

/**
 * The segments around a resolved place. Online discovery maps the area
 * first, within its budget; what it could not finish, `mapping` says.
 */
export async function segmentsAroundPlace(
  place: Pick<ResolvedPlace, 'latitude' | 'longitude' | 'area'>,
  asked: AroundAsked,
  parts: AroundParts,
): Promise<PlaceSegments> {
  const point = { lat: place.latitude, lon: place.longitude };
  const radiusM = searchRadiusM(asked.radiusM, place.area);
  const note = (await parts.discovery?.prepare(point, radiusM)) ?? null;
  const around = segmentsAround(parts.catalog, point, radiusM, asked.limit, asked.beyond);
  const listed = listedOf(around);
  const offline = around.found.length === 0 && !parts.discovery ? OFFLINE_MAPPING : null;
  return {
    ...around,
    point,
    radiusM,
    listed,
    mapping: note ? note.sentence : offline,
    forecastPoints: [
      ...listed.map(({ segment }) => forecastPointOf(segment)),
      ...(around.beyond ? [point] : []),
    ],
  };
}
