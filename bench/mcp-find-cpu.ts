/**
 * What one warm `find_tailwind_segments` call costs in process: the public
 * endpoint over the embedded catalog with the demo forecast at a fixed hour,
 * a call at each segment's start in turn, one at a time, after a warm-up.
 * Prints the CPU time per call (the figure a shared machine moves least) and
 * the wall-clock p50 and p99. Run it on two commits, taking turns.
 *
 * `node bench/mcp-find-cpu.ts [--calls N]`
 */
import { parseArgs } from 'node:util';
import { readSettings } from '../src/app/settings.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { createMcpEndpoint } from '../src/mcp/endpoint.ts';
import { mcpGuardConfig } from '../src/mcp/endpoint-guard.ts';
import { PUBLIC_TOOLS } from '../src/mcp/tools/public.ts';
import { findCalls, looksSuccessful, type McpCall } from './mcp-calls.ts';
import { warmLoop } from './warm-loop.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '4000' } } });

const segments = loadEmbeddedSegments();
const calls = findCalls(
  '2026-07-28',
  segments.flatMap(({ polyline: [start] }) => (start ? [start] : [])),
);
const settings = readSettings({});
const clock = () => Date.UTC(2026, 6, 28, 8);
const endpoint = createMcpEndpoint({
  deps: {
    catalog: createSegmentCatalog(segments),
    geocoder: lazyGazetteer(),
    forecast: createForecastCache(createDemoForecast({ clock }), { clock }),
    now: clock,
  },
  api: settings.urls,
  mcp: { ...mcpGuardConfig(settings.mcp), ratePerMinute: 1e9, rateBurst: 1e9 },
  tools: PUBLIC_TOOLS,
});

async function send({ headers, body }: McpCall): Promise<void> {
  const request = new Request('http://localhost:3000/mcp', {
    method: 'POST',
    headers: { ...headers, host: 'localhost:3000' },
    body,
  });
  const text = await (await endpoint(request, { address: '127.0.0.1' })).text();
  if (!looksSuccessful(text)) throw new Error(`A call failed: ${text.slice(0, 300)}`);
}

const count = Number(values.calls);
const nth = (i: number): McpCall => {
  const call = calls[i % calls.length];
  if (!call) throw new Error('no call');
  return call;
};
const { cpuUs, p50Ms, p99Ms } = await warmLoop(count, (i) => send(nth(i)));
console.log(
  `find_tailwind_segments, ${count} warm calls: CPU ${cpuUs.toFixed(0)} µs a call, ` +
    `wall p50 ${p50Ms} ms, p99 ${p99Ms} ms`,
);
