/**
 * The MCP bench's world-sized row: find_tailwind_segments over 1,000,000
 * generated segments served from a packed index (`WOS_SEGMENTS_FILE` naming
 * a `.segidx`), end to end over HTTP against `npm start`'s own server with
 * a warm forecast cache, next to `tools/list` on the same server as the
 * baseline; plus the server's start time and resident memory with that
 * catalog. A measurement: a MISS still exits 0; only a failed answer makes
 * the numbers invalid (exit 1). Runnable alone: `node bench/mcp-world.ts`;
 * `runWorldCatalogBench` is the hook for `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { npmStartArgs, startNode, stopAll } from '../scripts/service/launch.ts';
import { runBenchCommand } from './command.ts';
import type { LatLon } from '../src/core/bearing.ts';
import { generateSegmentStream } from '../tests/support/synthetic-segments.ts';
import { writePackedCatalog } from '../src/data/segments/pack.ts';
import type { Segment } from '../src/data/segments/types.ts';
import { alternate, failures, type LoadSettings } from './load.ts';
import { checkTargets, findCalls, listCall, mcpLoadTargets, type McpTarget } from './mcp-calls.ts';
import { mcpSettingsFromEnv, TARGET_P50_MS, TARGET_P99_MS } from './mcp.ts';

/** The bench is one client sending thousands of calls a second: the rate limit is lifted. */
const UNLIMITED = { WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' };

/** Resident memory of a process in MB, from /proc (Linux), or undefined elsewhere. */
function residentMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

const SEGMENTS = 1_000_000;
const SEED = 1;
const PLACES = 50;

/**
 * Every `stride`-th generated segment as it streams by, so the places spread
 * over every region without keeping a million segments; rounded to 0.001°
 * like `benchPlaces`, so a place is near, not on, a segment start.
 */
export function* keepingPlaces(
  segments: Iterable<Segment>,
  stride: number,
  into: LatLon[],
): Generator<Segment> {
  let n = 0;
  for (const segment of segments) {
    const start = segment.polyline[0];
    if (n++ % stride === 0 && start !== undefined)
      into.push({ lat: Math.round(start.lat * 1000) / 1000, lon: Math.round(start.lon * 1000) / 1000 });
    yield segment;
  }
}

/** Packing 1,000,000 segments, starting the server on it and two load rounds, at most. */
export const WORLD_BENCH_SECONDS = 240;

/** Packs the catalog, serves it, loads it with `settings.connections` connections; false when an answer failed. */
export async function runWorldCatalogBench(settings: LoadSettings): Promise<boolean> {
  console.log(
    `\nMCP: find_tailwind_segments over ${SEGMENTS.toLocaleString('en-US')} segments, packed index`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'bench-world-'));
  try {
    const path = join(dir, `segments-${SEGMENTS}.segidx`);
    const places: LatLon[] = [];
    const packStart = performance.now();
    // Generated segments are valid by construction (the unit tests round-trip them through the schema).
    const report = writePackedCatalog(
      path,
      keepingPlaces(generateSegmentStream(SEGMENTS, SEED), SEGMENTS / PLACES, places),
      {
        validate: false,
      },
    );
    console.log(
      `  packed ${report.segments.toLocaleString('en-US')} segments, ${report.points.toLocaleString('en-US')} points, ` +
        `${(report.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - packStart) / 1000).toFixed(1)} s`,
    );

    const started = performance.now();
    const server = await startNode(npmStartArgs(), { ...UNLIMITED, WOS_SEGMENTS_FILE: path });
    const startMs = performance.now() - started;
    const origin = server.baseUrl;
    const list: McpTarget = { label: 'tools/list (2026)', calls: [listCall('2026-07-28')] };
    const find: McpTarget = { label: 'find 1M (2026)', calls: findCalls('2026-07-28', places) };
    const findSse: McpTarget = { label: 'find 1M (2025)', calls: findCalls('2025-06-18', places) };
    console.log('  warming the forecast cache (demo forecast) and checking every answer:');
    await checkTargets(origin, [list, find, findSse]);
    const startRss = residentMb(server.pid);
    console.log(`  ${settings.connections} connections with autocannon:`);
    const rows = await alternate(mcpLoadTargets(origin, [list, find, findSse]), settings);
    const endRss = residentMb(server.pid);
    await stopAll();

    console.log(
      `\n1,000,000 segments, best of ${settings.rounds} rounds, ${settings.durationS} s each after ` +
        `${settings.warmupS} s, ${settings.connections} connections:`,
    );
    for (const row of rows)
      console.log(
        `  ${row.label.padEnd(20)} ${Math.round(row.requestsPerS).toString().padStart(6)} req/s  ` +
          `p50 ${row.p50Ms} ms  p90 ${row.p90Ms} ms  p99 ${row.p99Ms} ms  max ${row.maxMs} ms  failed ${failures(row)}`,
      );
    const mb = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(0)} MB`);
    console.log(
      `\n  server start with the 1M index: ${Math.round(startMs)} ms to the first /health; ` +
        `resident ${mb(startRss)} after warm-up, ${mb(endRss)} after the load`,
    );
    for (const row of rows.filter(({ label }) => label.startsWith('find'))) {
      const hit = row.p50Ms <= TARGET_P50_MS && row.p99Ms <= TARGET_P99_MS;
      console.log(
        `  ${row.label}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms ` +
          `(target p50 ≤ ${TARGET_P50_MS} ms, p99 ≤ ${TARGET_P99_MS} ms): ${hit ? 'HIT' : 'MISS'}`,
      );
    }
    const failed = rows.reduce((sum, row) => sum + failures(row), 0);
    if (failed > 0) console.error(`\nMCP 1M: ${failed} requests failed: the numbers are not valid.`);
    return failed === 0;
  } finally {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  await runBenchCommand('The world catalog bench', () =>
    runWorldCatalogBench(mcpSettingsFromEnv(process.env)),
  );
}
