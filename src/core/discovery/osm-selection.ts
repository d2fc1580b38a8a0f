import type { BBox, OsmTags } from './osm-types.ts';

/**
 * What discovery keeps of OpenStreetMap besides the roads (those are
 * `isRideableRoad`'s): the points that name a climb's top or a place along
 * it, and the signed bicycle routes. One file so the file reader, the
 * Overpass query and its answer's check select the same things. Pure.
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
