import { readFile } from 'node:fs/promises';
import KDBush from 'kdbush';
import type { BBox } from '../../core/discovery/osm-types.ts';
import type { NamedPlace } from '../../core/discovery/segment-name.ts';
import { readGazetteer } from './gazetteer-format.ts';
import { GAZETTEER_PATH } from './gazetteer.ts';

/** The towns of the offline place list inside a box, as discovery names places. */
export type TownsIn = (bbox: BBox) => NamedPlace[];

/** A place of this many people is a city; of this many a town; smaller ones are villages. */
const CITY_FROM = 100_000;
const TOWN_FROM = 2_000;

/**
 * The offline place list's towns (GeoNames, 1,000 people or more) as
 * settlements that can name where a discovered segment starts: an
 * OpenStreetMap extract may lack the point of a town it covers (Pas de la
 * Casa has none in the 2013 Andorra extract). Built once per process (a
 * kd-tree over ~120,000 towns, a few tenths of a second), only by discovery.
 */
export async function loadTownsIn(path: string | URL = GAZETTEER_PATH): Promise<TownsIn> {
  const index = readGazetteer(await readFile(path));
  const places: NamedPlace[] = [];
  const towns: number[] = [];
  for (let i = 0; i < index.placeCount; i++) if (index.place(i).kind === 'town') towns.push(i);
  const tree = new KDBush(Math.max(1, towns.length));
  // Islands, regions and lakes are not where a climb starts.
  for (const i of towns) {
    const place = index.place(i);
    const people = place.population ?? 0;
    const kind = people >= CITY_FROM ? 'city' : people >= TOWN_FROM ? 'town' : 'village';
    places.push({ name: place.name, kind, lat: place.lat, lon: place.lon, wiki: false });
    tree.add(place.lon, place.lat);
  }
  if (towns.length === 0) tree.add(0, 0);
  tree.finish();
  return (bbox) => {
    const boxes: [number, number][] =
      bbox.west <= bbox.east
        ? [[bbox.west, bbox.east]]
        : [
            [bbox.west, 180],
            [-180, bbox.east],
          ];
    return boxes.flatMap(([west, east]) =>
      tree.range(west, bbox.south, east, bbox.north).flatMap((i) => places[i] ?? []),
    );
  };
}
