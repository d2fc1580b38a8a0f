/**
 * `npm run segments:discover`: prepares discovered segments ahead of riders.
 * Online (`--place`), it maps the areas around a place from Overpass and the
 * elevation API into the rider store, as a rider's search would, but waits
 * for every area. Offline (`--osm … --dem …`), it builds a whole extract (a
 * country) in blocks on a pool of workers (discover-files.ts) into a GeoJSON
 * catalog written feature by feature, or with `--into-store` (the default
 * when `DATABASE_URL` is set) into the rider store, one transaction per
 * area, resuming where a stopped run left off. `--export` writes every
 * discovered segment (shipped and stored) as GeoJSON under the ODbL.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { createApp } from '../src/app/app.ts';
import { openLiveCatalog } from '../src/app/discovery.ts';
import { settingsFromProcess } from '../src/app/settings.ts';
import { buildIdentity, storeAreaSink } from '../src/app/discovery-build.ts';
import {
  buildFromFile,
  uniqueId,
  type AreaSink,
  type BuildSummary,
} from '../src/data/discovery/discover-files.ts';
import { openFeatureCollection } from '../src/data/segments/geojson-writer.ts';
import { nowSeconds } from '../src/store/clock.ts';
import { createGeocoder } from '../src/data/geocoding/select-geocoder.ts';
import { loadCountryOf } from '../src/data/geocoding/nearest-country.ts';
import { segmentToFeature, featureToSegment, SegmentFeatureSchema } from '../src/data/segments/geojson.ts';
import { loadEmbeddedSegments, loadHandTracedSegments } from '../src/data/segments/load.ts';
import { progressReporter, summaryLine } from './discover-progress.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { parseCommand, runCommand, UsageError } from './cli.ts';

const NAME = 'npm run segments:discover';
const DEFAULT_OUT = 'segments.discovered.geojson';

const USAGE = `Usage: npm run segments:discover -- --place NAME [--radius-km 25]
       npm run segments:discover -- --osm FILE.osm.pbf|.osm|.osm.gz [--osm …] --dem DIR
                                    [--out ${DEFAULT_OUT} | --into-store [--fresh]]
                                    [--workers N] [--block-nodes N] [--tiles N]
       npm run segments:discover -- --export FILE.geojson
--place maps the roads within --radius-km (1 to 100) of a place into the rider store, from Overpass
(WOS_OVERPASS_URL) and the elevation API (WOS_ELEVATION_URL), and waits for every area.
--osm/--dem discovers from OpenStreetMap files and SRTM .hgt(.zip) tiles, offline, in blocks of the
areas on-demand discovery uses, on --workers threads (default: the cores): into a GeoJSON catalog
(--out), or into the rider store (--into-store, the default when DATABASE_URL is set), one transaction
per area. A stopped store build resumes where it left off when run again; --fresh builds every area
again. --block-nodes (default 1,000,000) bounds the road nodes of one block; --tiles (default 16)
the elevation tiles each worker keeps decoded.
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
    'into-store': { type: 'boolean' },
    fresh: { type: 'boolean' },
    workers: { type: 'string' },
    'block-nodes': { type: 'string' },
    tiles: { type: 'string' },
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

interface OfflineOptions {
  readonly files: readonly string[];
  readonly dem: string;
  readonly out: string | null;
  readonly fresh: boolean;
  readonly workers: number;
  readonly blockNodes: number | undefined;
  readonly tiles: number | undefined;
}

/** A whole number from `min` up, or a usage error naming the option. */
function wholeNumber(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min)
    throw new UsageError(`--${name} must be a whole number from ${min}, not "${text}"`);
  return value;
}

async function offline(options: OfflineOptions): Promise<number> {
  const settings = settingsFromProcess();
  const intoStore = options.out === null;
  const store = intoStore ? await createApp(settings).store() : null;
  const where = store
    ? settings.store.databaseUrl
      ? 'PostgreSQL'
      : `SQLite ${settings.store.sqlitePath}`
    : options.out;
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('stopped by a signal'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const tty = process.stderr.isTTY === true;
  const progress = progressReporter({
    tty,
    write: (text) => (tty ? process.stderr.write(text) : process.stdout.write(text)),
  });
  const countryOf = loadCountryOf();
  const writer = store ? null : await openFeatureCollection(options.out as string);
  const ids = new Set<string>();
  let handTraced = loadHandTracedSegments();
  const summaries: BuildSummary[] = [];
  try {
    for (const file of options.files) {
      let sink: AreaSink;
      if (store) {
        const build = await buildIdentity(file, options.fresh ? new Date().toISOString() : null);
        sink = storeAreaSink(store, build, nowSeconds);
      } else {
        sink = {
          finished: async () => new Set(),
          area: async ({ segments }) => {
            for (const segment of segments) {
              const id = uniqueId(segment, (candidate) => ids.has(candidate));
              ids.add(id);
              await (writer as NonNullable<typeof writer>).write(
                segmentToFeature(id === segment.id ? segment : { ...segment, id }),
              );
            }
            return segments.length;
          },
        };
      }
      const summary = await buildFromFile({
        osmFile: file,
        demDir: options.dem,
        sink,
        handTraced,
        countryOf: () => countryOf,
        workers: options.workers,
        ...(options.blockNodes === undefined ? {} : { blockNodes: options.blockNodes }),
        ...(options.tiles === undefined ? {} : { maxTiles: options.tiles }),
        onProgress: (p) => progress.update(p),
        signal: stop.signal,
      });
      progress.end();
      summaries.push(summary);
      handTraced = handTraced.filter((hand) => !ids.has(hand.id));
      console.log(summaryLine(summary, where ?? ''));
    }
    await writer?.close();
  } catch (error) {
    progress.end();
    await writer?.abandon();
    if (stop.signal.aborted) {
      console.log(
        store
          ? `Stopped; the areas written so far stay in the store. Run the same command again to go on from there.`
          : `Stopped; nothing was written to ${options.out}.`,
      );
      return 130;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await store?.close();
  }
  const total = summaries.reduce((n, s) => n + s.segments, 0);
  console.log(`Wrote ${total} segment(s) to ${where} (© OpenStreetMap contributors, ODbL 1.0).`);
  return 0;
}

/** Every discovered segment, shipped and stored, as GeoJSON written feature by feature (a stored country fits no string). */
async function exportAll(out: string): Promise<number> {
  const settings = settingsFromProcess();
  const writer = await openFeatureCollection(out);
  const storedIds = new Set<string>();
  try {
    if (settings.discovery.mode === 'online') {
      const store = await createApp(settings).store();
      try {
        let after = '';
        for (;;) {
          const rows = await store.db
            .selectFrom('discovered_segment')
            .select(['id', 'feature'])
            .where('id', '>', after)
            .orderBy('id')
            .limit(1000)
            .execute();
          for (const row of rows) {
            const parsed = SegmentFeatureSchema.safeParse(JSON.parse(row.feature));
            if (!parsed.success) continue;
            storedIds.add(row.id);
            await writer.write(segmentToFeature(featureToSegment(parsed.data)));
          }
          if (rows.length < 1000) break;
          after = rows.at(-1)?.id ?? after;
        }
      } finally {
        await store.close();
      }
    }
    for (const segment of loadEmbeddedSegments()) {
      if (segment.license === 'ODbL-1.0' && !storedIds.has(segment.id))
        await writer.write(segmentToFeature(segment));
    }
    await writer.close();
  } catch (error) {
    await writer.abandon();
    throw error;
  }
  console.log(
    `Wrote ${writer.count} discovered segment(s) to ${out} (© OpenStreetMap contributors, ODbL 1.0).`,
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
    if (values.out !== undefined && values['into-store'] === true)
      throw new UsageError('give --out FILE or --into-store, not both');
    const intoStore =
      values['into-store'] === true ||
      (values.out === undefined && settingsFromProcess().store.databaseUrl !== undefined);
    return offline({
      files: values.osm.map((file) => resolve(file)),
      dem: resolve(values.dem),
      out: intoStore ? null : (values.out ?? DEFAULT_OUT),
      fresh: values.fresh === true,
      workers: wholeNumber('workers', values.workers, 0) ?? availableParallelism(),
      blockNodes: wholeNumber('block-nodes', values['block-nodes'], 1000),
      tiles: wholeNumber('tiles', values.tiles, 1),
    });
  }
  throw new UsageError('give --place, --osm with --dem, or --export');
}

await runCommand(NAME, () => main(process.argv.slice(2)));
