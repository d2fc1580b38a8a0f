/**
 * The ensemble row of `npm run bench`: what the chance of a tailwind costs.
 * In process, over 1,000,000 generated segments in a packed index, with the
 * Open-Meteo ensemble adapter and its cache wired as in production and only
 * the network swapped for the local double of the ensemble API
 * (tests/support/fake-open-meteo-ensemble.ts, 51 ECMWF members):
 * upstream requests and request weight per find_tailwind_segments call for
 * a Pro rider with a cold cache and a warm one, the cache's hit rate, and
 * p50/p99 of get_segment with probabilities, in process and over HTTP (a
 * node:http server on 127.0.0.1 for the length of those calls, see
 * ensemble-http.ts). Bounded: a fixed number of calls, each with a timeout. Runnable alone: `node bench/ensemble.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { APP_MIGRATIONS } from '../src/app/migrations.ts';
import type { LatLon } from '../src/core/bearing.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { createEnsembleCache } from '../src/data/forecast/ensemble-cache.ts';
import type { EnsembleRequest } from '../src/data/forecast/ensemble-types.ts';
import { createOpenMeteoEnsemble } from '../src/data/forecast/open-meteo-ensemble.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { writePackedCatalog } from '../src/data/segments/pack.ts';
import { openPackedCatalog } from '../src/data/segments/packed-catalog.ts';
import type { Segment } from '../src/data/segments/types.ts';
import type { ToolContext } from '../src/mcp/context.ts';
import { findTailwindSegments } from '../src/mcp/tools/find-tailwind-segments.ts';
import { getSegment } from '../src/mcp/tools/get-segment.ts';
import { resolveUrls } from '../src/http/public-urls.ts';
import { openStore } from '../src/store/database.ts';
import { migrateToLatest } from '../src/store/migrate.ts';
import { createRider } from '../src/store/repositories/riders.ts';
import { fakeOpenMeteoEnsemble } from '../tests/support/fake-open-meteo-ensemble.ts';
import { generateSegmentStream } from '../tests/support/synthetic-segments.ts';
import { segmentOverHttp } from './ensemble-http.ts';
import { table } from './table.ts';

const SEGMENTS = 1_000_000;
const PLACES = 40;
const SEGMENT_CALLS = 400;
/** Packing the catalog and the calls, at most (about 40 s of CPU; wall time on a loaded machine is more). */
export const ENSEMBLE_BENCH_SECONDS = 240;

/** Every `stride`-th segment's start (rounded to 0.001°) as a place, while the stream is packed. */
function* keeping(segments: Iterable<Segment>, stride: number, places: LatLon[], ids: string[]) {
  let n = 0;
  for (const segment of segments) {
    const start = segment.polyline[0];
    if (n++ % stride === 0 && start !== undefined) {
      places.push({ lat: Math.round(start.lat * 1000) / 1000, lon: Math.round(start.lon * 1000) / 1000 });
      ids.push(segment.id);
    }
    yield segment;
  }
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Runs the row; false when a call failed (the figures are then invalid). */
export async function runEnsembleBench(): Promise<boolean> {
  console.log(
    `\nEnsemble: the chance of a tailwind over ${SEGMENTS.toLocaleString('en-US')} segments (in process; get_segment also over HTTP)`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'bench-ensemble-'));
  const store = openStore({ engine: 'sqlite', path: ':memory:' });
  try {
    const path = join(dir, 'segments.segidx');
    const places: LatLon[] = [];
    const ids: string[] = [];
    writePackedCatalog(path, keeping(generateSegmentStream(SEGMENTS, 7), SEGMENTS / PLACES, places, ids), {
      validate: false,
    });
    const catalog = openPackedCatalog(path);
    await migrateToLatest(store, APP_MIGRATIONS);
    const rider = await createRider(store.db, { email: 'bench@example.com', plan: 'pro' }, 0);
    const now = () => Date.UTC(2026, 10, 21, 10, 20);
    const fake = fakeOpenMeteoEnsemble(now);
    const requests: EnsembleRequest[] = [];
    const ensemble = createEnsembleCache(
      createOpenMeteoEnsemble({
        fetch: fake.fetch,
        clock: now,
        baseUrl: 'http://ensemble.local',
        onRequest: (r) => requests.push(r),
      }),
      { clock: now },
    );
    const context: ToolContext = {
      catalog,
      geocoder: lazyGazetteer(),
      forecast: createForecastCache(createDemoForecast({ clock: now }), { clock: now }),
      ensemble,
      now,
      store,
      caller: { kind: 'rider', riderId: rider.id, grantId: 'bench', clientId: 'bench', scopes: [] },
      urls: resolveUrls({}, new URL('http://localhost')),
    };

    const findRound = async () => {
      const before = { requests: requests.length, weight: requests.reduce((s, r) => s + r.weight, 0) };
      const stats = ensemble.stats();
      let withChance = 0;
      for (const place of places) {
        const input = {
          latitude: place.lat,
          longitude: place.lon,
          radius_m: 25_000,
          limit: 10,
          include_darkness: false,
        };
        const { data } = await findTailwindSegments.run(input as never, context);
        withChance += data.segments.filter((s) => s.best_window?.chance != null).length;
      }
      const after = ensemble.stats();
      const weight = requests.reduce((s, r) => s + r.weight, 0) - before.weight;
      const hits = after.hits - stats.hits;
      const misses = after.misses - stats.misses;
      return {
        requests: (requests.length - before.requests) / places.length,
        weight: weight / places.length,
        hitRate: hits + misses === 0 ? NaN : hits / (hits + misses),
        withChance,
      };
    };
    const cold = await findRound();
    const warm = await findRound();

    const times: number[] = [];
    let chances = 0;
    for (let i = 0; i < SEGMENT_CALLS; i++) {
      const id = ids[i % ids.length] ?? '';
      const start = performance.now();
      const { data } = await getSegment.run({ segment_id: id, include_darkness: false } as never, context);
      times.push(performance.now() - start);
      if (data.best_window?.chance != null) chances += 1;
    }
    times.sort((a, b) => a - b);
    console.log(
      table(
        [
          'find_tailwind_segments (Pro)',
          'upstream requests / call',
          'request weight / call',
          'cell hit rate',
          'windows with a chance',
        ],
        [
          [
            'cold cache',
            cold.requests.toFixed(2),
            cold.weight.toFixed(1),
            `${(cold.hitRate * 100).toFixed(0)}%`,
            String(cold.withChance),
          ],
          [
            'warm cache',
            warm.requests.toFixed(2),
            warm.weight.toFixed(1),
            `${(warm.hitRate * 100).toFixed(0)}%`,
            String(warm.withChance),
          ],
        ],
      ),
    );
    console.log(
      `  get_segment with probabilities, ${SEGMENT_CALLS} calls over ${ids.length} segments (cache warm after the first): ` +
        `p50 ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms; ${chances} answers with a chance`,
    );
    const http = await segmentOverHttp(context, ids, SEGMENT_CALLS);
    console.log(
      `  get_segment with probabilities over HTTP (node:http on 127.0.0.1, one keep-alive client), ${http.calls} calls: ` +
        `p50 ${http.p50Ms.toFixed(2)} ms, p99 ${http.p99Ms.toFixed(2)} ms; ${http.withChance} answers with a chance`,
    );
    return true;
  } catch (error) {
    console.log(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ok = await runEnsembleBench();
  process.exitCode = ok ? 0 : 1;
}
