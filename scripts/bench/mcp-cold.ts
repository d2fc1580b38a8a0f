/**
 * The cold-cache half of the issue: how many upstream forecast requests one
 * find_tailwind_segments call costs when nothing is cached, and what our own
 * side of such a call takes. Runs in-process through the real endpoint (the
 * one `npm start` mounts) with the Open-Meteo client and cache wired as in
 * production, only the network swapped for a counting fake that answers in
 * Open-Meteo's exact JSON. The fake lives with the test doubles
 * (tests/support) so the batching test and the bench count the same way.
 */
import { performance } from 'node:perf_hooks';
import type { LatLon } from '../../src/core/bearing.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../../src/data/forecast/open-meteo-forecast.ts';
import { lazyGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import type { SegmentCatalog } from '../../src/data/segments/types.ts';
import { readSettings } from '../../src/app/settings.ts';
import { mcpGuardConfig } from '../../src/mcp/endpoint-guard.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';
import { fakeOpenMeteo, type FakeOpenMeteo } from '../../tests/support/fake-open-meteo.ts';
import { answerProblem, findCalls, segmentCount, type McpCall } from './mcp-requests.ts';

export interface ColdCacheFigures {
  readonly calls: number;
  readonly maxUpstream: number;
  readonly meanUpstream: number;
  /** Upstream requests made by the repeats of each call within the hour: should be 0. */
  readonly repeatUpstream: number;
  /** Locations asked per upstream request (one per distinct forecast grid cell). */
  readonly meanLocations: number;
  readonly meanSegments: number;
  /** Sorted per-call latencies, milliseconds. */
  readonly coldMs: readonly number[];
  readonly warmMs: readonly number[];
}

const MCP_URL = 'http://127.0.0.1:3000/mcp';
const geocoder = lazyGazetteer();

/** A fresh cache over a fresh counting upstream, behind the endpoint as `npm start` builds it. */
function coldEndpoint(catalog: SegmentCatalog): { endpoint: McpEndpoint; upstream: FakeOpenMeteo } {
  const clock = Date.now;
  const upstream = fakeOpenMeteo(clock);
  const forecast = createForecastCache(createOpenMeteoForecast({ fetch: upstream.fetch, clock }), { clock });
  const endpoint = createMcpEndpoint({
    deps: { catalog, geocoder, forecast, now: clock },
    api: {},
    mcp: mcpGuardConfig(
      readSettings({ WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' }).mcp,
    ),
    tools: PUBLIC_TOOLS,
  });
  return { endpoint, upstream };
}

async function timedCall(endpoint: McpEndpoint, call: McpCall): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const response = await endpoint(
    new Request(MCP_URL, {
      method: 'POST',
      headers: { ...call.headers, host: '127.0.0.1:3000' },
      body: call.body,
    }),
    { address: '127.0.0.1' },
  );
  const text = await response.text();
  const ms = performance.now() - start;
  const problem = answerProblem(response.status, text);
  if (problem !== undefined) throw new Error(`In-process find failed: ${problem}`);
  return { ms, text };
}

/**
 * Each place once with a brand-new cache (cold), then the same call again
 * (warm, the in-process baseline). A first pass is thrown away so the JIT
 * has compiled the path before anything is timed.
 */
export async function measureColdCache(
  catalog: SegmentCatalog,
  places: readonly LatLon[],
): Promise<ColdCacheFigures> {
  const calls = findCalls('2026-07-28', places);
  const upstreamPerCall: number[] = [];
  let repeatUpstream = 0;
  const locations: number[] = [];
  const segments: number[] = [];
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  for (const record of [false, true]) {
    for (const call of calls) {
      const { endpoint, upstream } = coldEndpoint(catalog);
      const cold = await timedCall(endpoint, call);
      const afterCold = upstream.requests();
      const warm = await timedCall(endpoint, call);
      if (!record) continue;
      coldMs.push(cold.ms);
      warmMs.push(warm.ms);
      upstreamPerCall.push(afterCold);
      repeatUpstream += upstream.requests() - afterCold;
      locations.push(...upstream.batchSizes());
      segments.push(segmentCount(cold.text) ?? 0);
    }
  }
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return {
    calls: upstreamPerCall.length,
    maxUpstream: Math.max(...upstreamPerCall),
    meanUpstream: mean(upstreamPerCall),
    repeatUpstream,
    meanLocations: mean(locations),
    meanSegments: mean(segments),
    coldMs: coldMs.sort((a, b) => a - b),
    warmMs: warmMs.sort((a, b) => a - b),
  };
}
