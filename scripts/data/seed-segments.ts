/**
 * The segments discovered from the shipped OpenStreetMap extracts and SRTM
 * tiles (`seed/`): generated into `src/data/segments/discovered.generated.geojson`
 * (untracked) when an input is newer, so `npm start` shows real climbs around
 * Andorra and Monaco with no network.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverFromFiles } from '../../src/data/discovery/discover-files.ts';
import { loadCountryOf } from '../../src/data/geocoding/nearest-country.ts';
import { formatFeatureCollection, segmentToFeature } from '../../src/data/segments/geojson.ts';
import { loadHandTracedSegments, SEED_SEGMENTS_PATH } from '../../src/data/segments/load.ts';
import { freshness, writeWhole } from './generated-file.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SEED_OSM = join(ROOT, 'seed/osm');
const SEED_DEM = join(ROOT, 'seed/dem');
/** Everything the result is made from: the data, the rules and the catalog whose climbs it adopts. */
const INPUT_DIRS = [SEED_OSM, SEED_DEM, join(ROOT, 'src/core/discovery'), join(ROOT, 'src/data/discovery')];
const INPUT_FILES = [
  join(ROOT, 'src/data/segments/catalog.geojson'),
  join(ROOT, 'src/data/segments/geojson.ts'),
];

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [])).sort().map((name) => join(dir, name));
}

/** Makes sure the seed catalog exists and is newer than its inputs; returns its path. */
export async function ensureSeedSegments(options: { force?: boolean; log?: boolean } = {}): Promise<string> {
  const path = fileURLToPath(SEED_SEGMENTS_PATH);
  const inputs = [...(await Promise.all(INPUT_DIRS.map(filesIn))).flat(), ...INPUT_FILES];
  if ((await freshness(path, inputs)).fresh && options.force !== true) {
    if (options.log === true) console.log(`seed segments: up to date → ${path}`);
    return path;
  }
  const started = performance.now();
  const osmFiles = (await filesIn(SEED_OSM)).filter((file) => /\.osm(\.pbf|\.gz)?$/.test(file));
  const { segments, reports } = await discoverFromFiles({
    osmFiles,
    demDir: SEED_DEM,
    countryOf: await loadCountryOf(),
    handTraced: loadHandTracedSegments(),
  });
  const text = formatFeatureCollection(segments.map(segmentToFeature));
  await writeWhole(path, text);
  if (options.log === true) {
    const each = reports.map((r) => `${r.segments} from ${r.file.slice(SEED_OSM.length + 1)}`).join(', ');
    console.log(
      `seed segments: ${segments.length} (${each}) in ${(performance.now() - started).toFixed(0)} ms → ${path}`,
    );
  }
  return path;
}

if (import.meta.main) {
  await ensureSeedSegments({ force: process.argv.includes('--force'), log: true });
}
