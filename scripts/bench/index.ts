/**
 * `npm run bench`: how much of a bare Node HTTP server's throughput the real
 * service keeps on this machine, plus the core bundle and Vercel function
 * sizes, then the MCP section (scripts/bench/mcp.ts). The service starts
 * exactly as users start it (`node scripts/start.ts`); the baseline answers
 * with the same number of bytes, so the difference is the service's own work.
 * A measurement, not a test: below the target still exits 0; only a failure
 * to run (a server not starting, non-2xx or error answers) exits 1.
 */
import { COLD_START_SECONDS, printColdStarts } from './cold-start.ts';
import { alternate, loadSeconds, settingsFromEnv } from './load.ts';
import { mcpBenchSeconds, mcpSettingsFromEnv, runMcpBench } from './mcp.ts';
import { BASELINE_SCRIPT } from './paths.ts';
import { freePort, startServer, stopAll, stopServersOnExit, waitUntilOk } from './processes.ts';
import { allAnswered, printLoadTable } from './report.ts';
import { printSizes } from './sizes.ts';

const TAILWIND_PATH = '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80';
/** Start-up (including a first `astro build`), sizes and shutdown, on top of the load itself. */
const OVERHEAD_S = 180;

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

async function main(): Promise<number> {
  const settings = settingsFromEnv(process.env);
  const mcpSettings = mcpSettingsFromEnv(process.env);
  stopServersOnExit();
  const watchdog = setTimeout(
    () => {
      console.error('The bench ran past its time limit; stopping.');
      void stopAll().finally(() => process.exit(1));
    },
    (loadSeconds(settings, 4) + OVERHEAD_S + mcpBenchSeconds(mcpSettings) + COLD_START_SECONDS) * 1000,
  );
  watchdog.unref();

  console.log(`Node ${process.version}; starting the service (node scripts/start.ts) and the baseline.`);
  const service = startServer('service', 'scripts/start.ts', await freePort());
  await waitUntilOk(service, '/health');
  const { body, headers } = await fetchAnswer(service.origin + TAILWIND_PATH);
  const bytes = Buffer.byteLength(body);

  const baseline = startServer('baseline', BASELINE_SCRIPT, await freePort(), { BENCH_BODY: body });
  const withHeaders = startServer('baseline', BASELINE_SCRIPT, await freePort(), {
    BENCH_BODY: body,
    BENCH_HEADERS: JSON.stringify(headers),
  });
  await Promise.all([waitUntilOk(baseline, '/health'), waitUntilOk(withHeaders, '/health')]);
  const baselineBytes = Buffer.byteLength((await fetchAnswer(baseline.origin + '/')).body);
  if (baselineBytes !== bytes) throw new Error(`Baseline body is ${baselineBytes} B, expected ${bytes} B.`);
  console.log(`All answer ${bytes} B of JSON. Loading them alternately:`);

  const [baselineResult, ...rows] = await alternate(
    [
      { label: 'baseline (node:http)', url: baseline.origin + TAILWIND_PATH },
      { label: 'tailwind, same URL', url: service.origin + TAILWIND_PATH },
      { label: 'tailwind, new URLs', url: service.origin + TAILWIND_PATH, distinct: true },
      { label: 'node:http, API headers', url: withHeaders.origin + TAILWIND_PATH },
    ],
    settings,
  );
  await stopAll();
  if (!baselineResult || rows.length !== 3) throw new Error('Missing load results.');
  printLoadTable(baselineResult, rows, settings);

  const mcpValid = await runMcpBench(mcpSettings);

  await printSizes();
  await printColdStarts();
  clearTimeout(watchdog);
  if (!allAnswered([baselineResult, ...rows])) {
    console.error('\nSome requests failed (non-2xx or socket errors): the numbers above are not valid.');
    return 1;
  }
  return mcpValid ? 0 : 1;
}

try {
  process.exit(await main());
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await stopAll();
  process.exit(1);
}
