import type { BBox, OsmTags } from './osm-types.ts';
import { isRideableRoad } from './rideable-way.ts';

/**
 * The select stage of discovery: what it keeps of OpenStreetMap. The roads a
 * road bike rides (`isRideableRoad`), the points that name a climb's top or a
 * place along it, and the signed bicycle routes. Every reader (the Overpass
 * answer, a whole file, a country's file in blocks) asks {@link selectedAs}
 * of each element as it reads, so the rule is applied once, in one place,
 * and a country's paths and driveways are never held in memory. Pure.
 */

/** `natural=*` points that can name a climb's top. */
export const NATURAL_POINTS: readonly string[] = ['saddle', 'peak'];

/** `place=*` points that name where a climb starts or passes (no suburbs: they repeat the town). */
export const PLACE_POINTS: readonly string[] = ['city', 'town', 'village', 'hamlet', 'locality'];

/**
 * Other points that name a climb's top, as `key=value`: a ski station
 * (Arcalís, Els Cortals), a lift station, a viewpoint at a summit road's end.
 */
export const TOP_POINTS: readonly (readonly [string, string])[] = [
  ['aerialway', 'station'],
  ['sport', 'skiing'],
  ['landuse', 'winter_sports'],
  ['tourism', 'viewpoint'],
];

const NATURAL = new Set(NATURAL_POINTS);
const PLACE = new Set(PLACE_POINTS);

/** A mountain pass, saddle, peak, settlement, ski or lift station or viewpoint point, with a name. */
export function isNamedPoint(tags: OsmTags | undefined): boolean {
  if (!tags) return false;
  if (tags.mountain_pass === 'yes' || NATURAL.has(tags.natural ?? '') || PLACE.has(tags.place ?? ''))
    return true;
  return tags.name !== undefined && TOP_POINTS.some(([key, value]) => tags[key] === value);
}

/** A signed bicycle route relation (`type=route` + `route=bicycle`). */
export function isBicycleRoute(tags: OsmTags): boolean {
  return tags.type === 'route' && tags.route === 'bicycle';
}

/** True when the point lies inside `bbox`, edges included; west > east spans the antimeridian. */
export function inBBox(lat: number, lon: number, bbox: BBox): boolean {
  if (lat < bbox.south || lat > bbox.north) return false;
  return bbox.west <= bbox.east ? lon >= bbox.west && lon <= bbox.east : lon >= bbox.west || lon <= bbox.east;
}

/** What an element is kept as; the one question every reader asks. */
export type Selected = 'road' | 'point' | 'route';

/** What discovery keeps an element as, or null when it keeps nothing of it (a node may still lend a road its position). */
export function selectedAs(type: 'node' | 'way' | 'relation', tags: OsmTags | undefined): Selected | null {
  if (tags === undefined) return null;
  if (type === 'way') return isRideableRoad(tags) ? 'road' : null;
  if (type === 'node') return isNamedPoint(tags) ? 'point' : null;
  return isBicycleRoute(tags) ? 'route' : null;
}
