/**
 * `npm run bench`: how much of a bare Node HTTP server's throughput the real
 * service keeps on this machine, then the MCP section (mcp.ts), then the core
 * bundle and Vercel function sizes (bundle-sizes.ts), the places survey's
 * share (places-share.ts), then the functions'
 * cold starts (cold-start.ts), with the alert job over 100,000 watches
 * (alerts-scale.ts) before the sizes, the ensemble row (ensemble.ts) and the
 * server's resident memory under MCP load over 1,000,000 segments
 * (mcp-memory.ts), and segment discovery over the Andorra extract (discovery.ts). The service starts exactly as users start it (`npm
 * start`'s node command); the baseline answers with the same number of
 * bytes, so the difference is the service's own work. The
 * ratio to the baseline is what is compared with the target, because
 * absolute requests per second say more about the machine than the service.
 * A measurement, not a test: below the target still exits 0; only a failure
 * to run (a server not starting, non-2xx or error answers) exits 1. Everything
 * printed is also written to bench/results.md with the date, commit, machine
 * and load (results.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { npmStartArgs, startNode, stopAll, stopAllOnExit } from '../scripts/service/launch.ts';
import { startWatchdog } from './command.ts';
import { table } from './table.ts';
import { recordResults, REST_RESULTS_FILE, RESULTS_FILE, SCALE_RESULTS_FILE } from './results.ts';
import {
  alternate,
  loadSeconds,
  settingsFromEnv,
  spreadOf,
  type LoadSettings,
  type Spread,
  type Measurement,
} from './load.ts';
import { mcpBenchSeconds, mcpSettingsFromEnv, runMcpBench } from './mcp.ts';
import { printSizes } from './bundle-sizes.ts';
import { printPlacesShare } from './places-share.ts';
import { COLD_START_SECONDS, printColdStarts } from './cold-start.ts';
import { CATALOG_LOAD_SECONDS, runCatalogLoadBench } from './catalog-load.ts';
import { WORLD_BENCH_SECONDS, runWorldCatalogBench } from './mcp-world.ts';
import { ROUTE_BENCH_SECONDS, runRouteBench } from './route-tool.ts';
import { ALERT_SCALE_SECONDS, runAlertScaleBench } from './alerts-scale.ts';
import { ENSEMBLE_BENCH_SECONDS, runEnsembleBench } from './ensemble.ts';
import { DISCOVERY_BENCH_SECONDS, runDiscoveryBench } from './discovery.ts';
import { SCALE_BENCH_SECONDS, runScaleBench } from './discovery-scale.ts';
import { printMcpSizes } from './mcp-sizes.ts';
import { BENCH_MEMORY_OPTIONS, memoryBenchSeconds, runMemoryBench } from './mcp-memory.ts';

const TAILWIND_PATH = '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80';
const BASELINE_SCRIPT = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
const FASTIFY_SCRIPT = fileURLToPath(new URL('./fastify-server.ts', import.meta.url));
/** Start-up (including a first `astro build`), sizes and shutdown, on top of the load itself. */
const OVERHEAD_S = 180;
/** The service should keep at least this share of the baseline's throughput. */
export const TARGET_RATIO = 0.85;
/** With a new URL on every request (no memo), the service should keep this share of the bare server sent the same URLs. */
export const NEW_URL_TARGET_RATIO = 0.95;
/** …and at least match the same endpoint in Fastify with JSON-schema validation. */
export const FASTIFY_TARGET_RATIO = 1.0;
/** REST rounds: at least five, so the median of each row and ratio is not decided by one noisy round. */
const REST_ROUNDS = 5;
/** The REST load rows, in order; the ratios below look them up by label. */
const LABELS = {
  baseline: 'baseline (node:http)',
  baselineFresh: 'baseline (node:http), new URLs',
  same: 'tailwind, same URL',
  fresh: 'tailwind, new URLs',
  headers: 'node:http, API headers',
  headersFresh: 'node:http, API headers, new URLs',
  fastifySame: 'fastify, same URL',
  fastifyFresh: 'fastify, new URLs',
} as const;

/** The body of a 200 answer and the headers a server chose to send with it. */
async function fetchAnswer(url: string): Promise<{ body: string; headers: Record<string, string> }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body}`);
  const headers = Object.fromEntries(
    [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
  );
  return { body, headers };
}

/** A process's resident memory in MB from /proc (Linux), or undefined elsewhere. */
function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

let counter = 0;
/**
 * Every request its own URL: the wind speed from 0.000 to 299.999 changes each time, so nothing
 * the service remembers per URL is reused.
 */
function distinctRequests(url: string): autocannon.Request[] {
  const { pathname, search } = new URL(url);
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    counter = (counter + 1) % 300_000;
    const query = new URLSearchParams(search);
    query.set('wind_speed_kmh', (counter / 1000).toFixed(3));
    return { ...request, path: `${pathname}?${query}` };
  };
  return [{ setupRequest }];
}

/** req/s as the table shows it. */
const perS = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed3 = (value: number) => value.toFixed(3);
/** A median with its range, as the ratio lines give it. */
const spreadText = ({ median: middle, min, max }: Spread, format: (value: number) => string) =>
  `${format(middle)} (${format(min)}–${format(max)})`;

/**
 * The load table (median and range of each row's rounds, p50 and p99 of its median round) and each
 * service row's throughput ratio: taken round by round (the rows of one round ran back to back, so
 * drift in the machine hits both sides) and given as the median and range of those ratios.
 */
function printLoadTable(rows: readonly Measurement[], settings: LoadSettings): void {
  if (rows.length === 0) return;
  console.log(
    `\nLoad: median and range of ${settings.rounds} alternating rounds; each ${settings.durationS} s measured ` +
      `after ${settings.warmupS} s warm-up, ${settings.connections} connections, pipelining ${settings.pipelining}.`,
  );
  console.log('(p50 and p99 from the median round; non-2xx and errors summed over all measured runs)\n');
  // autocannon records latency in whole milliseconds, so no decimals are invented.
  const ms = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  const cells = rows.map((m) => {
    const rates = m.rounds.map((round) => round.requestsPerS);
    const { median: middle, min, max } = spreadOf(rates);
    const medianRound =
      m.rounds.find((round) => round.requestsPerS === middle) ??
      [...m.rounds].sort((a, b) => Math.abs(a.requestsPerS - middle) - Math.abs(b.requestsPerS - middle))[0];
    const cpu = m.rounds.flatMap((round) =>
      round.cpuUsPerRequest === undefined ? [] : [round.cpuUsPerRequest],
    );
    return [
      m.label,
      perS(middle),
      `${perS(min)}–${perS(max)}`,
      ms(medianRound?.p50Ms ?? Number.NaN),
      ms(medianRound?.p99Ms ?? Number.NaN),
      cpu.length === 0 ? '–' : spreadText(spreadOf(cpu), (value) => value.toFixed(1)),
      String(m.non2xx),
      String(m.errors),
    ];
  });
  console.log(
    table(
      ['target', 'median req/s', 'range', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'non-2xx', 'errors'],
      cells,
      [1, 2, 3, 4, 5, 6, 7],
    ),
  );
  console.log('');
  const rounds = (label: string) => rows.find((m) => m.label === label)?.rounds ?? [];
  const ratio = (label: string, over: string, target?: number) => {
    const mine = rounds(label);
    const theirs = rounds(over);
    const ratios = mine
      .map((round, index) => round.requestsPerS / (theirs[index]?.requestsPerS ?? Number.NaN))
      .filter(Number.isFinite);
    const { median: middle, min, max } = ratios.length > 0 ? spreadOf(ratios) : { median: 0, min: 0, max: 0 };
    const verdict =
      target === undefined ? '' : ` (target >= ${target}): ${middle >= target ? 'PASS' : 'BELOW TARGET'}`;
    console.log(
      `Throughput ${label} / ${over}: median ${fixed3(middle)}, range ${fixed3(min)}–${fixed3(max)}${verdict}`,
    );
  };
  const cpuRatio = (label: string, over: string) => {
    const mine = rounds(label);
    const theirs = rounds(over);
    const ratios = mine
      .map(
        (round, index) =>
          (round.cpuUsPerRequest ?? Number.NaN) / (theirs[index]?.cpuUsPerRequest ?? Number.NaN),
      )
      .filter(Number.isFinite);
    if (ratios.length === 0) return;
    console.log(`Server CPU per request ${label} / ${over}: median ${spreadText(spreadOf(ratios), fixed3)}`);
  };
  ratio(LABELS.same, LABELS.baseline, TARGET_RATIO);
  ratio(LABELS.fresh, LABELS.baselineFresh, NEW_URL_TARGET_RATIO);
  // The bare server above sends two headers; this one the API's five, the bytes the contract requires.
  ratio(LABELS.fresh, LABELS.headersFresh, NEW_URL_TARGET_RATIO);
  ratio(LABELS.headersFresh, LABELS.baselineFresh);
  ratio(LABELS.fresh, LABELS.baseline);
  ratio(LABELS.fresh, LABELS.fastifyFresh, FASTIFY_TARGET_RATIO);
  ratio(LABELS.same, LABELS.fastifySame);
  ratio(LABELS.headers, LABELS.baseline);
  ratio(LABELS.fastifyFresh, LABELS.baseline);
  // CPU time per request moves far less than throughput when other work shares the cores.
  cpuRatio(LABELS.fresh, LABELS.baselineFresh);
  cpuRatio(LABELS.fresh, LABELS.headersFresh);
  cpuRatio(LABELS.fresh, LABELS.fastifyFresh);
  cpuRatio(LABELS.same, LABELS.baseline);
}

async function main(): Promise<number> {
  const settings = settingsFromEnv(process.env, 'BENCH_CONNECTIONS', 50, REST_ROUNDS);
  const mcpSettings = mcpSettingsFromEnv(process.env);
  stopAllOnExit();
  const limitS =
    loadSeconds(settings, Object.keys(LABELS).length) +
    OVERHEAD_S +
    mcpBenchSeconds(mcpSettings) +
    COLD_START_SECONDS +
    CATALOG_LOAD_SECONDS +
    WORLD_BENCH_SECONDS +
    ROUTE_BENCH_SECONDS +
    ENSEMBLE_BENCH_SECONDS +
    DISCOVERY_BENCH_SECONDS +
    SCALE_BENCH_SECONDS +
    memoryBenchSeconds(BENCH_MEMORY_OPTIONS) +
    ALERT_SCALE_SECONDS;
  const watchdog = startWatchdog('The bench', limitS);

  console.log(`Node ${process.version}; starting the service (npm start's node command) and the baseline.`);
  const service = await startNode(npmStartArgs());
  const { body, headers } = await fetchAnswer(service.baseUrl + TAILWIND_PATH);
  const bytes = Buffer.byteLength(body);
  const [baseline, withHeaders, fastify] = await Promise.all([
    startNode([BASELINE_SCRIPT], { BENCH_BODY: body }),
    startNode([BASELINE_SCRIPT], { BENCH_BODY: body, BENCH_HEADERS: JSON.stringify(headers) }),
    startNode([FASTIFY_SCRIPT]),
  ]);
  const baselineBytes = Buffer.byteLength((await fetchAnswer(baseline.baseUrl + '/')).body);
  if (baselineBytes !== bytes) throw new Error(`Baseline body is ${baselineBytes} B, expected ${bytes} B.`);
  const peer = await fetchAnswer(fastify.baseUrl + TAILWIND_PATH);
  if (peer.body !== body || JSON.stringify(peer.headers) !== JSON.stringify(headers)) {
    throw new Error(`The Fastify peer answers differently:\n${JSON.stringify(peer)}\nexpected\n${body}`);
  }
  console.log(`All answer ${bytes} B of JSON. Loading them alternately:`);

  const rssBefore = rssMb(service.pid);
  const rows = await alternate(
    [
      // The same URL repeated, then new URLs, each group back to back so drift in the machine hits its rows alike.
      { label: LABELS.baseline, url: baseline.baseUrl + TAILWIND_PATH, pid: baseline.pid },
      { label: LABELS.same, url: service.baseUrl + TAILWIND_PATH, pid: service.pid },
      { label: LABELS.headers, url: withHeaders.baseUrl + TAILWIND_PATH, pid: withHeaders.pid },
      { label: LABELS.fastifySame, url: fastify.baseUrl + TAILWIND_PATH, pid: fastify.pid },
      // The same varied URLs to the bare servers: autocannon builds a new request each time, which costs
      // the load generator (on the same two cores) as much as some servers spend answering.
      {
        label: LABELS.baselineFresh,
        url: baseline.baseUrl + TAILWIND_PATH,
        pid: baseline.pid,
        requests: distinctRequests(baseline.baseUrl + TAILWIND_PATH),
      },
      {
        label: LABELS.headersFresh,
        url: withHeaders.baseUrl + TAILWIND_PATH,
        pid: withHeaders.pid,
        requests: distinctRequests(withHeaders.baseUrl + TAILWIND_PATH),
      },
      {
        label: LABELS.fresh,
        url: service.baseUrl + TAILWIND_PATH,
        pid: service.pid,
        requests: distinctRequests(service.baseUrl + TAILWIND_PATH),
      },
      {
        label: LABELS.fastifyFresh,
        url: fastify.baseUrl + TAILWIND_PATH,
        pid: fastify.pid,
        requests: distinctRequests(fastify.baseUrl + TAILWIND_PATH),
      },
    ],
    settings,
  );
  // The memo and the origin maps are bounded, so the service's memory should end where the load began.
  const rssAfter = rssMb(service.pid);
  await stopAll();
  printLoadTable(rows, settings);
  if (rssBefore !== undefined && rssAfter !== undefined) {
    console.log(`Service RSS: ${rssBefore} MB before the load, ${rssAfter} MB after it.`);
  }

  // `npm run bench -- --rest`: the REST rows alone, for repeated runs.
  const restOnly = process.argv.includes('--rest');
  let mcpValid = true;
  if (!restOnly) {
    mcpValid = await runMcpBench(mcpSettings);
    mcpValid = (await runWorldCatalogBench(mcpSettings)) && mcpValid;
    mcpValid = (await runMemoryBench(BENCH_MEMORY_OPTIONS)) && mcpValid;
    mcpValid = (await runRouteBench()) && mcpValid;
    mcpValid = (await runEnsembleBench()) && mcpValid;
    mcpValid = runDiscoveryBench() && mcpValid;
    mcpValid = (await runScaleBench()) && mcpValid;
    runCatalogLoadBench();
    mcpValid = (await runAlertScaleBench()) && mcpValid;
    await printMcpSizes();
    await printSizes();
    await printPlacesShare();
    await printColdStarts();
  }
  clearTimeout(watchdog);
  if (rows.some((m) => m.non2xx + m.errors > 0)) {
    console.error('\nSome requests failed (non-2xx or socket errors): the numbers above are not valid.');
    return 1;
  }
  return mcpValid ? 0 : 1;
}

const benchArgs = process.argv.slice(2);
if (benchArgs.includes('--help') || benchArgs.includes('-h')) {
  console.log(`Usage: npm run bench [-- --rest | --discovery-scale]

Measures the service on this machine and writes everything it prints to bench/results.md, with the
date, commit, machine and load average: REST throughput against bare node:http and Fastify, the MCP
tools, large catalogs, memory under MCP load, get_route_wind, the alert job over 100,000 watches,
bundle sizes, the places survey's share and cold starts. Takes several minutes and both cores; run it on a quiet machine.

  --rest      the REST rows only (each with its server's CPU time per request, steadier than
              req/s when other work shares the cores)
  --discovery-scale
              the discovery scale row only (K copies of Andorra through segments:discover; needs
              osmium-tool), into bench/results-discovery-scale.md
  -h, --help  this text

Environment: BENCH_DURATION (seconds per round, default 10), BENCH_CONNECTIONS (default 50).`);
  process.exit(0);
}
const scaleOnly = benchArgs.includes('--discovery-scale');
const writeResults = recordResults(
  ['npm run bench', ...(benchArgs.length > 0 ? ['--', ...benchArgs] : [])].join(' '),
  benchArgs.includes('--rest') ? REST_RESULTS_FILE : scaleOnly ? SCALE_RESULTS_FILE : RESULTS_FILE,
);
try {
  const code = scaleOnly ? ((await runScaleBench()) ? 0 : 1) : await main();
  const file = writeResults(code === 0 ? 'completed' : 'completed with failed requests (figures not valid)');
  console.log(`\nResults written to ${file}.`);
  process.exit(code);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await stopAll();
  writeResults('failed (see the end of the output)');
  process.exit(1);
}
