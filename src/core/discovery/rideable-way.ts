import type { OsmTags } from './osm-types.ts';

/**
 * Which OpenStreetMap ways a road bike rides, the one rule every reader
 * applies (the file reader, the Overpass adapter and the chaining), so an
 * offline and an online discovery keep the same roads. Pure.
 */

/**
 * Road classes kept whatever their `surface` says nothing about: in OSM a
 * road of these classes without a `surface` tag is paved in the overwhelming
 * majority of cases (Europe, North America), and a climb on one is what a
 * road rider looks for. The `_link` ramps are kept because the road over a
 * pass often meets its valley road through one, and without them the chain
 * would break at every junction. `motorway` and `motorway_link` are never
 * kept: bicycles are banned on them nearly everywhere. `living_street`
 * (walking pace by law in most countries), `road` (unknown class),
 * `pedestrian`, `footway`, `path`, `bridleway` and `steps` are not kept.
 */
export const ROAD_HIGHWAYS: readonly string[] = [
  'trunk',
  'trunk_link',
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'cycleway',
];

/**
 * Classes kept only with an explicit paved `surface` (or, for a track,
 * `tracktype=grade1`, "solid, usually paved"): untagged service roads are
 * mostly driveways and car parks, untagged tracks mostly gravel and dirt.
 * Many paved mountain climbs in the Alps and Pyrenees are tagged
 * `highway=track` with `surface=asphalt`, hence not excluded outright.
 */
export const PAVED_ONLY_HIGHWAYS: readonly string[] = ['service', 'track'];

/** Every `highway` value the Overpass query asks for: the single list both sides read. */
export const OVERPASS_HIGHWAYS: readonly string[] = [...ROAD_HIGHWAYS, ...PAVED_ONLY_HIGHWAYS];

/**
 * Surfaces a road bike rides: sealed ones and the cobbles of the Flemish
 * and northern-French climbs (`sett`, `cobblestone`), which riders seek out.
 * Anything else that is present (`gravel`, `dirt`, `ground`, `unpaved`,
 * `compacted`, `grass`, `unhewn_cobblestone`, a typo like `yes`) counts as
 * unpaved: a wrong "no" loses one road, a wrong "yes" sends a rider onto
 * gravel.
 */
export const PAVED_SURFACES: readonly string[] = [
  'asphalt',
  'paved',
  'concrete',
  'concrete:plates',
  'concrete:lanes',
  'chipseal',
  'paving_stones',
  'sett',
  'cobblestone',
];

/** `service=*` values that are never a road to ride along, paved or not. */
const PRIVATE_SERVICE = new Set(['driveway', 'parking_aisle', 'drive-through', 'emergency_access']);

/** A bicycle permission that overrides a general `access=no` (roads closed to cars, open to bikes). */
const BICYCLE_ALLOWED = new Set(['yes', 'designated', 'permissive']);

const ROADS = new Set(ROAD_HIGHWAYS);
const PAVED_ONLY = new Set(PAVED_ONLY_HIGHWAYS);
const PAVED = new Set(PAVED_SURFACES);

/**
 * True for a way a road bike may and can ride: a kept highway class, bikes
 * not banned (`bicycle=no|dismount|private`, or `access=no|private` without a
 * `bicycle=yes|designated|permissive` that lifts it), a paved or untagged
 * surface (explicitly paved for service roads and tracks), not an area.
 */
export function isRideableRoad(tags: OsmTags): boolean {
  const highway = tags.highway;
  if (highway === undefined || tags.area === 'yes') return false;
  const bicycle = tags.bicycle;
  if (bicycle === 'no' || bicycle === 'dismount' || bicycle === 'private') return false;
  if ((tags.access === 'no' || tags.access === 'private') && !BICYCLE_ALLOWED.has(bicycle ?? '')) {
    return false;
  }
  const surface = tags.surface;
  if (surface !== undefined && !PAVED.has(surface)) return false;
  if (ROADS.has(highway)) return true;
  if (!PAVED_ONLY.has(highway)) return false;
  if (highway === 'service' && PRIVATE_SERVICE.has(tags.service ?? '')) return false;
  return surface !== undefined || (highway === 'track' && tags.tracktype === 'grade1');
}
