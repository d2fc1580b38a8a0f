import { readFile } from 'node:fs/promises';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { LatLon } from '../../core/bearing.ts';
import { readGazetteer } from './gazetteer-format.ts';
import { GAZETTEER_PATH } from './gazetteer.ts';

/** Country of a point, or `XX` (ISO's user-assigned "unknown") where no town lies within reach. */
export type CountryOf = (point: LatLon) => string;

/** Beyond this from any town of 1,000 people the country is not guessed. */
const REACH_KM = 150;

/**
 * The country of the nearest town of the offline place list: what a
 * discovered segment is filed under. Near a border the nearest town may lie
 * across it, which the name of the segment's own places then shows; OSM
 * extracts carry no reliable country per road, and a boundary data set is
 * more than this needs. Built once per process (a kd-tree over ~120,000
 * towns, a few tenths of a second), only by discovery.
 */
export async function loadCountryOf(path: string | URL = GAZETTEER_PATH): Promise<CountryOf> {
  const index = readGazetteer(await readFile(path));
  const codes: string[] = [];
  const tree = new KDBush(Math.max(1, index.placeCount));
  for (let i = 0; i < index.placeCount; i++) {
    const place = index.place(i);
    codes.push(place.countryCode);
    tree.add(place.lon, place.lat);
  }
  if (index.placeCount === 0) tree.add(0, 0);
  tree.finish();
  return (point) => {
    const [nearest] = around(tree, point.lon, point.lat, 1, REACH_KM);
    return (nearest !== undefined ? codes[nearest] : undefined) || 'XX';
  };
}
