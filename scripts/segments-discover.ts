/**
 * `npm run segments:discover`: prepares discovered segments ahead of riders.
 * Online (`--place`), it maps the areas around a place from Overpass and the
 * elevation API into the rider store, as a rider's search would, but waits
 * for every area. Offline (`--osm … --dem …`), it discovers from OpenStreetMap
 * files and SRTM tiles into a GeoJSON catalog. `--export` writes every
 * discovered segment (shipped and stored) as GeoJSON under the ODbL.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createApp } from '../src/app/app.ts';
import { openLiveCatalog } from '../src/app/discovery.ts';
import { settingsFromProcess } from '../src/app/settings.ts';
import { discoverFromFiles } from '../src/data/discovery/discover-files.ts';
import { createGeocoder } from '../src/data/geocoding/select-geocoder.ts';
import { loadCountryOf } from '../src/data/geocoding/nearest-country.ts';
import {
  formatFeatureCollection,
  segmentToFeature,
  featureToSegment,
  SegmentFeatureSchema,
} from '../src/data/segments/geojson.ts';
import { loadEmbeddedSegments, loadHandTracedSegments } from '../src/data/segments/load.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import type { Segment } from '../src/data/segments/types.ts';
import { parseCommand, runCommand, UsageError } from './cli.ts';

const NAME = 'npm run segments:discover';
const DEFAULT_OUT = 'segments.discovered.geojson';

const USAGE = `Usage: npm run segments:discover -- --place NAME [--radius-km 25]
       npm run segments:discover -- --osm FILE.osm.pbf|.osm|.osm.gz [--osm …] --dem DIR [--out ${DEFAULT_OUT}]
       npm run segments:discover -- --export FILE.geojson
--place maps the roads within --radius-km (1 to 100) of a place into the rider store, from Overpass
(WOS_OVERPASS_URL) and the elevation API (WOS_ELEVATION_URL), and waits for every area.
--osm/--dem discovers from OpenStreetMap files and SRTM .hgt(.zip) tiles, offline, into a GeoJSON catalog.
--export writes every discovered segment (shipped and stored) as GeoJSON: © OpenStreetMap contributors, ODbL 1.0.`;

const COMMAND = {
  name: NAME,
  usage: USAGE,
  options: {
    place: { type: 'string' },
    'radius-km': { type: 'string' },
    osm: { type: 'string', multiple: true },
    dem: { type: 'string' },
    out: { type: 'string' },
    export: { type: 'string' },
  },
} as const;

async function online(place: string, radiusKm: number): Promise<number> {
  const settings = settingsFromProcess();
  const [found] = await createGeocoder(settings.geocoder).search(place, 1);
  if (found === undefined) throw new UsageError(`no place named "${place}" was found`);
  const app = createApp(settings);
  const store = await app.store();
  const live = openLiveCatalog(
    settings.discovery,
    createSegmentCatalog(loadEmbeddedSegments()),
    async () => store,
    async () => undefined,
    { budgetMs: 10 * 60_000 },
  );
  const point = { lat: found.lat, lon: found.lon };
  const note = await live.prepare(point, radiusKm * 1000);
  const near = live.near(point, radiusKm * 1000, 1000);
  console.log(
    `${found.name}, ${found.countryCode}: ${near.length} segment(s) within ${radiusKm} km` +
      (note ? `; ${note.sentence}` : ''),
  );
  await store.close();
  return note?.state === 'failed' ? 1 : 0;
}

async function offline(files: readonly string[], dem: string, out: string): Promise<number> {
  const { segments, reports } = await discoverFromFiles({
    osmFiles: files.map((file) => resolve(file)),
    demDir: resolve(dem),
    countryOf: await loadCountryOf(),
    handTraced: loadHandTracedSegments(),
  });
  await writeFile(out, formatFeatureCollection(segments.map(segmentToFeature)));
  for (const r of reports) {
    console.log(
      `${r.file}: ${r.segments} segment(s) from ${r.counts.chains} roads, ${r.counts.heights} heights, ${(r.ms / 1000).toFixed(1)} s`,
    );
  }
  console.log(`Wrote ${segments.length} segment(s) to ${out} (© OpenStreetMap contributors, ODbL 1.0).`);
  return 0;
}

async function exportAll(out: string): Promise<number> {
  const settings = settingsFromProcess();
  const shipped = loadEmbeddedSegments().filter((s) => s.license === 'ODbL-1.0');
  const stored: Segment[] = [];
  if (settings.discovery.mode === 'online') {
    const store = await createApp(settings).store();
    const rows = await store.db.selectFrom('discovered_segment').select('feature').orderBy('id').execute();
    for (const row of rows) {
      const parsed = SegmentFeatureSchema.safeParse(JSON.parse(row.feature));
      if (parsed.success) stored.push(featureToSegment(parsed.data));
    }
    await store.close();
  }
  const ids = new Set(stored.map((s) => s.id));
  const all = [...shipped.filter((s) => !ids.has(s.id)), ...stored];
  await writeFile(out, formatFeatureCollection(all.map(segmentToFeature)));
  console.log(
    `Wrote ${all.length} discovered segment(s) to ${out} (© OpenStreetMap contributors, ODbL 1.0).`,
  );
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseCommand(COMMAND, argv);
  if (values.export !== undefined) return exportAll(values.export);
  if (values.place !== undefined) {
    const radiusKm = values['radius-km'] === undefined ? 25 : Number(values['radius-km']);
    if (!(radiusKm >= 1 && radiusKm <= 100)) {
      throw new UsageError(`--radius-km must be a number from 1 to 100, not "${values['radius-km']}"`);
    }
    return online(values.place, radiusKm);
  }
  if (values.osm !== undefined) {
    if (values.dem === undefined)
      throw new UsageError('--osm needs --dem DIR (a folder of SRTM .hgt or .hgt.zip tiles)');
    return offline(values.osm, values.dem, values.out ?? DEFAULT_OUT);
  }
  throw new UsageError('give --place, --osm with --dem, or --export');
}

await runCommand(NAME, () => main(process.argv.slice(2)));
