/**
 * The MCP section of `npm run bench` (issue #4), also runnable alone:
 * `node scripts/bench/mcp.ts`. find_tailwind_segments over a generated
 * catalog of 100,000 segments with a warm forecast cache, end to end over
 * HTTP against `npm start`'s own server, next to `tools/list` on the same
 * server as the baseline; then, in-process, the upstream requests a call
 * costs with a cold cache. A measurement: a MISS still exits 0; only a
 * failure to run or a failed answer (non-2xx, JSON-RPC or tool error) makes
 * the numbers invalid.
 */
import type { LatLon } from '../../src/core/bearing.ts';
import { loadSeconds, settingsFromEnv, type LoadSettings } from './load.ts';
import { benchPlaces, nearQueryMicros, prepareCatalog } from './mcp-catalog.ts';
import { measureColdCache } from './mcp-cold.ts';
import { alternateMcp, type McpMeasurement, type McpTarget } from './mcp-load.ts';
import { printCatalog, printColdCache, printMcpTable, printStart, printVerdicts } from './mcp-report.ts';
import { findCalls, listCall, pingCall, type Protocol } from './mcp-requests.ts';
import { sequentialLatency } from './mcp-sequential.ts';
import { residentMb, startMcpService, warmUp } from './mcp-service.ts';
import { stopAll, stopServersOnExit } from './processes.ts';

const SEGMENTS = 100_000;
const SEED = 1;
const PLACES = 50;
/** Catalog generation, two server starts, checks and the cold-cache pass, on top of the load itself. */
const OVERHEAD_S = 150;
const LOAD_TARGETS = 4;

/** The REST bench's durations, with `BENCH_MCP_CONNECTIONS` (default 10) connections. */
export function mcpSettingsFromEnv(env: NodeJS.ProcessEnv): LoadSettings {
  const text = env['BENCH_MCP_CONNECTIONS']?.trim();
  const connections = text ? Number(text) : 10;
  if (!Number.isSafeInteger(connections) || connections < 1) {
    throw new Error(`BENCH_MCP_CONNECTIONS must be a positive whole number, got "${text}".`);
  }
  return { ...settingsFromEnv(env), connections };
}

/** The longest the MCP section can take, for a watchdog. */
export function mcpBenchSeconds(settings: LoadSettings): number {
  return loadSeconds(settings, LOAD_TARGETS) + settings.warmupS + settings.durationS + OVERHEAD_S;
}

/** The baseline and the tool call in one protocol; 2025 servers accept any 2025 revision, labelled by year. */
function targetsFor(protocol: Protocol, places: readonly LatLon[]): { list: McpTarget; find: McpTarget } {
  const era = protocol.startsWith('2025') ? '2025' : protocol;
  return {
    list: { label: `tools/list (${era})`, calls: [listCall(protocol)] },
    find: { label: `find (${era})`, calls: findCalls(protocol, places) },
  };
}

function rowOf(rows: readonly McpMeasurement[], target: McpTarget): McpMeasurement {
  const row = rows.find(({ label }) => label === target.label);
  if (row === undefined) throw new Error(`No measurement for ${target.label}.`);
  return row;
}

/** Runs the whole MCP section and prints it; false when some answer failed (the numbers are then invalid). */
export async function runMcpBench(settings: LoadSettings): Promise<boolean> {
  console.log(`\nMCP: find_tailwind_segments over ${SEGMENTS.toLocaleString('en-US')} generated segments`);
  const bench = await prepareCatalog(SEGMENTS, SEED);
  try {
    const places = benchPlaces(bench.segments, PLACES);
    printCatalog(bench, places.length, nearQueryMicros(bench.catalog, places));

    // The embedded catalog's start is the baseline for the 100k one; it then idles until the end.
    const embedded = await startMcpService('mcp service (embedded catalog)', {});
    const large = await startMcpService('mcp service (100k catalog)', { WOS_SEGMENTS_FILE: bench.path });
    printStart(embedded, large, [residentMb(embedded.server), residentMb(large.server)]);

    const origin = large.server.origin;
    const v2025 = targetsFor('2025-06-18', places);
    const v2026 = targetsFor('2026-07-28', places);
    const ping: McpTarget = { label: 'ping (2025)', calls: [pingCall('2025-06-18')] };
    const loadTargets = [v2025.list, v2025.find, v2026.list, v2026.find];
    console.log('  warming the forecast cache (demo forecast) and checking every answer:');
    await warmUp(origin, [ping, ...loadTargets]);

    const { warmupS, durationS, connections, rounds } = settings;
    console.log(
      `  one client, one request at a time, targets taking turns (${durationS} s after ${warmupS} s)…`,
    );
    const sequential = await sequentialLatency(origin, [ping, ...loadTargets], warmupS, durationS);
    console.log(`  ${connections} connections with autocannon:`);
    const loaded = await alternateMcp(origin, loadTargets, settings);
    await stopAll();
    const cold = await measureColdCache(bench.catalog, places);

    printMcpTable(
      'One client, one request at a time (timed to the µs; req/s = its share of one connection):',
      sequential,
    );
    printMcpTable(
      `Under load: best of ${rounds} alternating rounds, each ${durationS} s after ${warmupS} s warm-up, ` +
        `${connections} connections (autocannon, whole ms; failed = non-2xx, socket errors, timeouts, error answers):`,
      loaded,
    );
    printVerdicts(
      [
        { mode: 'one client, 2025 (SSE answer)', rows: sequential, targets: v2025 },
        { mode: 'one client, 2026-07-28 (JSON)', rows: sequential, targets: v2026 },
        { mode: `${connections} connections, 2025`, rows: loaded, targets: v2025 },
        { mode: `${connections} connections, 2026-07-28`, rows: loaded, targets: v2026 },
      ].map(({ mode, rows, targets }) => ({
        mode,
        tool: rowOf(rows, targets.find),
        baseline: rowOf(rows, targets.list),
      })),
    );
    printColdCache(cold);

    const failed = [...sequential, ...loaded].reduce((sum, m) => sum + m.failures, 0);
    if (failed > 0)
      console.error(`\nMCP: ${failed} requests failed (see "failed"): the MCP numbers are not valid.`);
    return failed === 0;
  } finally {
    await stopAll();
    await bench.remove();
  }
}

if (import.meta.main) {
  const settings = mcpSettingsFromEnv(process.env);
  stopServersOnExit();
  const watchdog = setTimeout(
    () => {
      console.error('The MCP bench ran past its time limit; stopping.');
      void stopAll().finally(() => process.exit(1));
    },
    mcpBenchSeconds(settings) * 1000,
  );
  watchdog.unref();
  try {
    console.log(`Node ${process.version}`);
    const valid = await runMcpBench(settings);
    clearTimeout(watchdog);
    process.exit(valid ? 0 : 1);
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await stopAll();
    process.exit(1);
  }
}
