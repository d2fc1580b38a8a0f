/**
 * The route tool's bench: get_route_wind on a 100 km route, in-process
 * through the real endpoint (no socket, so the figures are the tool's own
 * work: reading and simplifying the route, one batched forecast read, the
 * start search over 72 hours and the power model). Warm rows reuse one
 * demo-forecast cache; the cold row gives every call a brand-new cache over
 * the counting Open-Meteo fake and reports the upstream requests it made.
 * Bounded: each row stops after ROUTE_ROW_SECONDS or ROUTE_ROW_CALLS calls.
 */
import { performance } from 'node:perf_hooks';
import { readSettings } from '../src/app/settings.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../src/data/forecast/open-meteo-forecast.ts';
import type { ForecastSource } from '../src/data/forecast/types.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { mcpGuardConfig } from '../src/mcp/endpoint-guard.ts';
import { createMcpEndpoint, type McpEndpoint } from '../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../src/mcp/tools/public.ts';
import { fakeOpenMeteo } from '../tests/support/fake-open-meteo.ts';
import { hundredKmPoints } from '../tests/support/route-points.ts';
import { answerProblem, call, percentile, type McpCall } from './mcp-calls.ts';
import { table } from './table.ts';

const ROUTE_ROW_SECONDS = 6;
const ROUTE_ROW_CALLS = 400;
const WARMUP_CALLS = 10;
/** Rows × (warm-up + row limit), plus set-up: what index.ts allows this section. */
export const ROUTE_BENCH_SECONDS = 3 * (ROUTE_ROW_SECONDS + 4) + 5;

const UNLIMITED_GUARD = mcpGuardConfig(
  readSettings({ WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' }).mcp,
);

function endpointWith(forecast: ForecastSource): McpEndpoint {
  return createMcpEndpoint({
    deps: { catalog: createSegmentCatalog([]), geocoder: lazyGazetteer(), forecast, now: Date.now },
    api: {},
    mcp: UNLIMITED_GUARD,
    tools: PUBLIC_TOOLS,
  });
}

async function timedCall(endpoint: McpEndpoint, mcpCall: McpCall): Promise<number> {
  const start = performance.now();
  const response = await endpoint(
    new Request('http://127.0.0.1:3000/mcp', {
      method: 'POST',
      headers: { ...mcpCall.headers, host: '127.0.0.1:3000' },
      body: mcpCall.body,
    }),
    { address: '127.0.0.1' },
  );
  const text = await response.text();
  const ms = performance.now() - start;
  const problem = answerProblem(response.status, text);
  if (problem !== undefined) throw new Error(`get_route_wind failed in the bench: ${problem}`);
  return ms;
}

interface Row {
  readonly label: string;
  readonly sorted: readonly number[];
  readonly upstreamPerCall?: number;
}

async function runRow(
  label: string,
  mcpCall: McpCall,
  endpointFor: () => { endpoint: McpEndpoint; requests?: () => number },
): Promise<Row> {
  const shared = endpointFor();
  for (let i = 0; i < WARMUP_CALLS; i++) await timedCall(endpointFor().endpoint, mcpCall);
  const times: number[] = [];
  const upstream: number[] = [];
  const until = performance.now() + ROUTE_ROW_SECONDS * 1000;
  while (times.length < ROUTE_ROW_CALLS && performance.now() < until) {
    const fresh = shared.requests === undefined ? shared : endpointFor();
    times.push(await timedCall(fresh.endpoint, mcpCall));
    if (fresh.requests) upstream.push(fresh.requests());
  }
  const mean = upstream.length > 0 ? upstream.reduce((a, b) => a + b, 0) / upstream.length : undefined;
  return {
    label,
    sorted: times.sort((a, b) => a - b),
    ...(mean === undefined ? {} : { upstreamPerCall: mean }),
  };
}

/** Prints p50 and p99 of get_route_wind for a 100 km route; false when a call failed. */
export async function runRouteBench(): Promise<boolean> {
  console.log('\nMCP: get_route_wind on a 100 km route (in-process, one call at a time)');
  const args = (stepKm: number) => ({
    name: 'get_route_wind',
    arguments: { points: hundredKmPoints(stepKm) },
  });
  const every500m = call('2026-07-28', 1, 'tools/call', args(0.5));
  const every100m = call('2026-07-28', 1, 'tools/call', args(0.1));
  const demo = createForecastCache(createDemoForecast({ clock: Date.now }), { clock: Date.now });
  const warm = () => ({ endpoint: endpointWith(demo) });
  const cold = () => {
    const upstream = fakeOpenMeteo(Date.now);
    const source = createOpenMeteoForecast({ fetch: upstream.fetch, clock: Date.now });
    return {
      endpoint: endpointWith(createForecastCache(source, { clock: Date.now })),
      requests: upstream.requests,
    };
  };
  try {
    const rows = [
      await runRow('201 points (every 500 m), warm cache', every500m, warm),
      await runRow('1,001 points (every 100 m), warm cache', every100m, warm),
      await runRow('201 points, cold cache (fake upstream)', every500m, cold),
    ];
    const cells = rows.map((row) => [
      row.label,
      String(row.sorted.length),
      percentile(row.sorted, 50).toFixed(1),
      percentile(row.sorted, 99).toFixed(1),
      row.upstreamPerCall === undefined ? '–' : row.upstreamPerCall.toFixed(2),
    ]);
    console.log(table(['route', 'calls', 'p50 ms', 'p99 ms', 'upstream/call'], cells, [1, 2, 3, 4]));
    return true;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return false;
  }
}

if (import.meta.main) process.exit((await runRouteBench()) ? 0 : 1);
