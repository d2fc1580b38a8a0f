/**
 * The MCP bench's in-process half. First its catalog: synthetic segments
 * written as the GeoJSON file an operator would give `WOS_SEGMENTS_FILE`,
 * loaded back step by step as the server loads it at start-up, so a slow
 * start can be traced to reading, validating or indexing. Then the cold
 * cache: how many upstream forecast requests one find_tailwind_segments call
 * costs when nothing is cached, through the real endpoint with the
 * Open-Meteo client and cache wired as in production, only the network
 * swapped for the counting fake the batching test uses (tests/support).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LatLon } from '../src/core/bearing.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../src/data/forecast/open-meteo-forecast.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { generateSegments } from '../tests/support/synthetic-segments.ts';
import {
  formatFeatureCollection,
  parseSegmentCollection,
  segmentToFeature,
} from '../src/data/segments/geojson.ts';
import type { Segment, SegmentCatalog } from '../src/data/segments/types.ts';
import { readSettings } from '../src/app/settings.ts';
import { mcpGuardConfig } from '../src/mcp/endpoint-guard.ts';
import { createMcpEndpoint, type McpEndpoint } from '../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../src/mcp/tools/public.ts';
import { fakeOpenMeteo } from '../tests/support/fake-open-meteo.ts';
import { answerProblem, findCalls, segmentCount, type McpCall } from './mcp-calls.ts';

function timed<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

/** A generated catalog in a temporary file, and the milliseconds each step of loading it took. */
export interface BenchCatalog {
  readonly path: string;
  readonly bytes: number;
  readonly segments: readonly Segment[];
  readonly catalog: SegmentCatalog;
  readonly timings: Readonly<
    Record<'generate' | 'format' | 'read' | 'jsonParse' | 'validate' | 'index', number>
  >;
  /** Deletes the temporary file and its directory. */
  remove(): Promise<void>;
}

/** Generates `count` segments, writes them in the operator format, and loads them back as the server does. */
export async function prepareCatalog(count: number, seed: number): Promise<BenchCatalog> {
  const [generated, generate] = timed(() => generateSegments(count, seed));
  const [text, format] = timed(() => formatFeatureCollection(generated.map(segmentToFeature)));
  const dir = await mkdtemp(join(tmpdir(), 'bench-mcp-'));
  const path = join(dir, `segments-${count}.geojson`);
  await writeFile(path, text);
  const [raw, read] = timed(() => readFileSync(path, 'utf8'));
  const [json, jsonParse] = timed((): unknown => JSON.parse(raw));
  const [segments, validate] = timed(() => parseSegmentCollection(json));
  const [catalog, index] = timed(() => createSegmentCatalog(segments));
  return {
    path,
    bytes: Buffer.byteLength(text),
    segments,
    catalog,
    timings: { generate, format, read, jsonParse, validate, index },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * `count` places spread over the catalog: the starts of segments taken at an
 * even stride through it (the generator draws regions at random, so the
 * stride visits every region), rounded to 0.001° so a place is near, not on,
 * a segment start. Each has segments within the default 25 km radius.
 */
export function benchPlaces(segments: readonly Segment[], count: number): LatLon[] {
  const stride = Math.max(1, Math.floor(segments.length / count));
  const places: LatLon[] = [];
  for (let i = 0; i < segments.length && places.length < count; i += stride) {
    const start = segments[i]?.polyline[0];
    if (start)
      places.push({ lat: Math.round(start.lat * 1000) / 1000, lon: Math.round(start.lon * 1000) / 1000 });
  }
  return places;
}

/** Mean time of one `near` query (25 km, limit 10) over the places, in microseconds: the index's share of a call. */
export function nearQueryMicros(catalog: SegmentCatalog, places: readonly LatLon[], rounds = 20): number {
  for (const place of places) catalog.near(place, 25_000, 10);
  const [, ms] = timed(() => {
    for (let r = 0; r < rounds; r += 1) for (const place of places) catalog.near(place, 25_000, 10);
  });
  return (ms * 1000) / (rounds * places.length);
}

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

const geocoder = lazyGazetteer();
/** The endpoint's guard as `npm start` builds it, with the rate limit lifted: the bench is one caller. */
const UNLIMITED_GUARD = mcpGuardConfig(
  readSettings({ WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' }).mcp,
);
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

async function timedCall(endpoint: McpEndpoint, call: McpCall): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const request = new Request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: { ...call.headers, host: '127.0.0.1:3000' },
    body: call.body,
  });
  const response = await endpoint(request, { address: '127.0.0.1' });
  const text = await response.text();
  const ms = performance.now() - start;
  const problem = answerProblem(response.status, text);
  if (problem !== undefined) throw new Error(`In-process find failed: ${problem}`);
  return { ms, text };
}

/**
 * Each place once behind a brand-new cache over a fresh counting upstream
 * (cold), then the same call again (warm, the in-process baseline). A first
 * pass is thrown away so the JIT has compiled the path before anything is timed.
 */
export async function measureColdCache(
  catalog: SegmentCatalog,
  places: readonly LatLon[],
): Promise<ColdCacheFigures> {
  const upstreamPerCall: number[] = [];
  const locations: number[] = [];
  const segments: number[] = [];
  const coldMs: number[] = [];
  const warmMs: number[] = [];
  let repeatUpstream = 0;
  for (const record of [false, true]) {
    for (const call of findCalls('2026-07-28', places)) {
      const clock = Date.now;
      const upstream = fakeOpenMeteo(clock);
      const forecast = createForecastCache(createOpenMeteoForecast({ fetch: upstream.fetch, clock }), {
        clock,
      });
      const endpoint = createMcpEndpoint({
        deps: { catalog, geocoder, forecast, now: clock },
        api: {},
        mcp: UNLIMITED_GUARD,
        tools: PUBLIC_TOOLS,
      });
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
