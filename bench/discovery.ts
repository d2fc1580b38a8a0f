/**
 * The discovery row of `npm run bench`: what mapping a place costs and what
 * searching a catalog that holds discovered segments costs. In a process of
 * its own (so its peak resident memory is the discovery's), with the real
 * Overpass and elevation adapters against their wire-format doubles fed the
 * shipped Andorra extract and SRTM tile, and the live catalog over an
 * in-memory SQLite store: the wall time, the upstream requests (Overpass
 * queries, elevation requests and the points they asked) and the segments
 * found for a 25 km radius around Andorra la Vella, the peak RSS, then the
 * p50/p99 of find_tailwind_segments in process over the result. The doubles
 * answer on loopback at once, so the time is our own work, not a public
 * instance's. Bounded: a fixed number of calls and a time limit. Runnable
 * alone: `npm exec -- node bench/discovery.ts`.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { discoveryPort } from '../src/app/discovery.ts';
import { openMigratedStore } from '../src/app/migrations.ts';
import { areaDiscoverer } from '../src/data/discovery/area-discoverer.ts';
import { areaKeysAround } from '../src/data/discovery/area-grid.ts';
import { discoverSegments, TIMED_STAGES, type TimedStage } from '../src/data/discovery/discover.ts';
import type { DiscoveredSegment } from '../src/data/discovery/segment-records.ts';
import { hgtElevationSource } from '../src/data/discovery/hgt-elevation.ts';
import { createLiveCatalog } from '../src/data/discovery/live-catalog.ts';
import { openMeteoElevationSource } from '../src/data/discovery/open-meteo-elevation.ts';
import { readOsmFile } from '../src/data/discovery/osm-file.ts';
import { overpassSource } from '../src/data/discovery/overpass.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { loadTownsIn } from '../src/data/geocoding/gazetteer-towns.ts';
import { loadCountryOf } from '../src/data/geocoding/nearest-country.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { loadHandTracedSegments } from '../src/data/segments/load.ts';
import { resolveUrls } from '../src/http/public-urls.ts';
import type { ToolContext } from '../src/mcp/context.ts';
import { findTailwindSegments } from '../src/mcp/tools/find-tailwind-segments.ts';
import { startElevationDouble } from '../tests/support/elevation-double.ts';
import { startOverpassDouble } from '../tests/support/overpass-double.ts';
import { runBenchCommand } from './command.ts';
import { percentile } from './mcp-calls.ts';
import { table } from './table.ts';

const ANDORRA_LA_VELLA = { lat: 42.5063, lon: 1.5218 };
const RADIUS_M = 25_000;
const FIND_CALLS = 300;
/** The child's own limit; the parent allows a little more. */
const CHILD_LIMIT_S = 150;
export const DISCOVERY_BENCH_SECONDS = CHILD_LIMIT_S + 10;

async function measure(): Promise<boolean> {
  const fixture = await readOsmFile(fileURLToPath(new URL('../seed/osm/andorra.osm.pbf', import.meta.url)));
  const [overpass, elevation] = await Promise.all([
    startOverpassDouble(fixture),
    startElevationDouble(fileURLToPath(new URL('../seed/dem', import.meta.url))),
  ]);
  const store = await openMigratedStore({ engine: 'sqlite', path: ':memory:' });
  const now = () => Math.floor(Date.now() / 1000);
  const live = createLiveCatalog(createSegmentCatalog(loadHandTracedSegments()), {
    port: discoveryPort(
      async () => store,
      async () => undefined,
    ),
    discover: areaDiscoverer({
      osm: overpassSource({ url: overpass.url }),
      elevation: openMeteoElevationSource({ url: elevation.url }),
      countryOf: loadCountryOf,
      townsIn: loadTownsIn,
      handTraced: loadHandTracedSegments,
    }),
    budgetMs: (CHILD_LIMIT_S - 30) * 1000,
    refreshAfterS: 30 * 86_400,
    recheckAfterS: 60,
    timeoutMs: (CHILD_LIMIT_S - 30) * 1000,
    now,
  });
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  // Sampled, not getrusage's maxRSS: a child started by a big parent inherits the parent's maximum
  // across fork and exec (this row once read 1,201 MB that way, under npm run bench's 1 GB process).
  let peakMb = rssBeforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, process.memoryUsage().rss / 2 ** 20)), 10);
  const started = performance.now();
  const note = await live.prepare(ANDORRA_LA_VELLA, RADIUS_M);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakMb = Math.max(peakMb, process.memoryUsage().rss / 2 ** 20);
  const upstream = {
    queries: overpass.requests(),
    requests: elevation.requests(),
    points: elevation.coordinates(),
  };
  const found = live.near(ANDORRA_LA_VELLA, RADIUS_M, 10_000);
  const climbs = found.filter((n) => n.segment.kind === 'climb').length;
  const areas = areaKeysAround(ANDORRA_LA_VELLA, RADIUS_M).length;
  const files = await fileRows();

  const clock = () => Date.now();
  const context: ToolContext = {
    catalog: live,
    discovery: live,
    geocoder: lazyGazetteer(),
    forecast: createForecastCache(createDemoForecast({ clock }), { clock }),
    now: clock,
    caller: { kind: 'anonymous' },
    urls: resolveUrls({}, new URL('http://localhost')),
  };
  const input = {
    ...{ latitude: ANDORRA_LA_VELLA.lat, longitude: ANDORRA_LA_VELLA.lon },
    radius_m: RADIUS_M,
    limit: 5,
    include_darkness: false,
  };
  for (let i = 0; i < 20; i++) await findTailwindSegments.run(input as never, context);
  const times: number[] = [];
  for (let i = 0; i < FIND_CALLS; i++) {
    // A point a few tens of metres further each call: a new search over the same areas.
    const point = {
      latitude: ANDORRA_LA_VELLA.lat + (i % 10) * 0.0005,
      longitude: ANDORRA_LA_VELLA.lon + (i % 7) * 0.0005,
    };
    const t = performance.now();
    await findTailwindSegments.run({ ...input, ...point } as never, context);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  await Promise.all([overpass.close(), elevation.close(), store.close()]);

  console.log(
    table(
      ['discovery, 25 km around Andorra la Vella', 'value'],
      [
        ['areas (0.25°)', String(areas)],
        ['wall time', `${seconds.toFixed(1)} s (${(seconds / areas).toFixed(2)} s an area)`],
        ['Overpass queries', String(upstream.queries)],
        ['elevation requests (points)', `${upstream.requests} (${upstream.points.toLocaleString('en-GB')})`],
        ['segments found: climbs / stretches', `${climbs} / ${found.length - climbs}`],
        ['segments an area', (found.length / areas).toFixed(1)],
        ['RSS before → peak while mapping', `${rssBeforeMb.toFixed(0)} → ${peakMb.toFixed(0)} MB`],
        [
          `find_tailwind_segments p50 / p99 (${FIND_CALLS} calls)`,
          `${percentile(times, 50).toFixed(1)} / ${percentile(times, 99).toFixed(1)} ms`,
        ],
      ],
      [1],
    ),
  );
  console.log(
    table(
      ['offline, from the file and its tiles', 'climbs', 'stretches', 'time (median of 3)'],
      files.map((row) => [row.name, String(row.climbs), String(row.stretches), `${row.ms.toFixed(0)} ms`]),
      [1, 2, 3],
    ),
  );
  console.log(
    table(
      ['stage (median of 3)', ...files.map((row) => row.name)],
      TIMED_STAGES.map((stage) => [
        stage,
        ...files.map((row) => `${(row.stageMs.get(stage) ?? 0).toFixed(0)} ms`),
      ]),
      files.map((_, i) => i + 1),
    ),
  );
  if (note !== null) console.log(`Discovery did not finish: ${note.sentence}`);
  return note === null && found.length > 0;
}

/** The shipped Andorra extract and the Bayreuth test extract (signed cycle routes), each whole, offline. */
async function fileRows(): Promise<
  { name: string; climbs: number; stretches: number; ms: number; stageMs: Map<TimedStage, number> }[]
> {
  const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
  const inputs = [
    { name: 'Andorra (seed, 2013)', osm: here('../seed/osm/andorra.osm.pbf'), dem: here('../seed/dem') },
    {
      name: 'north of Bayreuth (cycle routes, 2014)',
      osm: here('../tests/fixtures/discovery/bayreuth/north-bayreuth-roads.osm.gz'),
      dem: here('../tests/fixtures/discovery/bayreuth'),
    },
  ];
  const countryOf = await loadCountryOf();
  const rows = [];
  for (const input of inputs) {
    const extract = await readOsmFile(input.osm);
    const elevation = hgtElevationSource(input.dem);
    const times: number[] = [];
    const stageTimes = new Map<TimedStage, number[]>(TIMED_STAGES.map((stage) => [stage, []]));
    let segments: DiscoveredSegment[] = [];
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      ({ segments } = await discoverSegments(extract, elevation, {
        osmSource: input.name,
        countryOf,
        onStage: (stage, ms) => stageTimes.get(stage)?.push(ms),
      }));
      times.push(performance.now() - started);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
    const stageMs = new Map([...stageTimes].map(([stage, values]) => [stage, median(values)]));
    const climbs = segments.filter((s) => s.kind === 'climb').length;
    rows.push({ name: input.name, climbs, stretches: segments.length - climbs, ms: median(times), stageMs });
  }
  return rows;
}

/** Runs the row in a child process and prints what it printed (so `npm run bench` records it). */
export function runDiscoveryBench(): boolean {
  console.log('\nSegment discovery (Overpass and elevation doubles on loopback, fed the Andorra extract):');
  try {
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
      encoding: 'utf8',
      timeout: DISCOVERY_BENCH_SECONDS * 1000,
    });
    console.log(output.trimEnd());
    return true;
  } catch (error) {
    console.error(`The discovery row failed: ${(error as Error).message.split('\n')[0]}`);
    return false;
  }
}

if (import.meta.main) await runBenchCommand('The discovery bench', measure, CHILD_LIMIT_S);
