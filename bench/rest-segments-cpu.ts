/**
 * What one warm `GET /v1/segments` costs in process: the REST handler with
 * its data port over the embedded catalog, the gazetteer and the demo
 * forecast at a fixed hour, no per-client limit, one request at a time after
 * a warm-up. The requests cycle through a point at each segment's start
 * (segments within the radius), a few place names (shared names, a region)
 * and points far from any segment (the nearest beyond the radius, or none).
 * Prints the CPU time per request (the figure a shared machine moves least)
 * and the wall-clock p50 and p99. Run it on two commits, taking turns.
 *
 * `node bench/rest-segments-cpu.ts [--requests N] [--kind all|within|names|far]`
 */
import { parseArgs } from 'node:util';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { createApiHandler } from '../src/rest/handler.ts';
import { warmLoop } from './warm-loop.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    kind: { type: 'string', default: 'all' },
  },
});

const NAMES = ['Paris', 'Girona', "Bourg-d'Oisans", 'Andorra la Vella', 'Mallorca', 'Springfield', 'Hobart'];
const FAR = ['-33.92,18.42', '41.98,2.82', '48.85,2.35', '35.68,139.69', '-1.29,36.82'];

const segments = loadEmbeddedSegments();
const KINDS: Readonly<Record<string, readonly string[]>> = {
  within: segments.flatMap(({ polyline: [start] }) =>
    start
      ? [`/v1/segments?lat=${start.lat.toFixed(4)}&lon=${start.lon.toFixed(4)}&radius_km=25&limit=10`]
      : [],
  ),
  names: NAMES.map((name) => `/v1/segments?place=${encodeURIComponent(name)}`),
  far: FAR.map((point) => {
    const [lat, lon] = point.split(',');
    return `/v1/segments?lat=${lat}&lon=${lon}&radius_km=5&limit=10`;
  }),
};
const paths = values.kind === 'all' ? Object.values(KINDS).flat() : (KINDS[values.kind] ?? []);
if (paths.length === 0) throw new Error(`--kind is all, ${Object.keys(KINDS).join(', ')}`);

const clock = () => Date.UTC(2026, 6, 28, 8);
const data = {
  catalog: createSegmentCatalog(segments),
  geocoder: lazyGazetteer(),
  forecast: createForecastCache(createDemoForecast({ clock }), { clock }),
  now: clock,
  limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) },
};
const handle = createApiHandler({}, { data: async () => data, memo: 0 });

async function send(path: string): Promise<void> {
  const response = await handle(new Request(`http://localhost:3000${path}`));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
}

const count = Number(values.requests);
const nth = (i: number): string => paths[i % paths.length] ?? '';
const { cpuUs, p50Ms, p99Ms } = await warmLoop(count, (i) => send(nth(i)));
console.log(
  `GET /v1/segments (${values.kind}), ${count} warm requests over ${paths.length} URLs: CPU ${cpuUs.toFixed(0)} µs a request, ` +
    `wall p50 ${p50Ms} ms, p99 ${p99Ms} ms`,
);
