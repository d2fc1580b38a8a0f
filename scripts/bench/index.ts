/**
 * `npm run bench`: how much of a bare Node HTTP server's throughput the real
 * service keeps on this machine, plus the core bundle and Vercel function
 * sizes. The service starts exactly as users start it (`node scripts/start.ts`);
 * the baseline answers with the same number of bytes, so the difference is the
 * service's own work. A measurement, not a test: below the target still exits
 * 0; only a failure to run (a server not starting, non-2xx answers) exits 1.
 */
import { alternate, loadSeconds, settingsFromEnv } from './load.ts';
import { BASELINE_SCRIPT } from './paths.ts';
import { freePort, startServer, stopAll, stopServersOnExit, waitUntilOk } from './processes.ts';
import { allAnswered, printLoadTable } from './report.ts';
import { printSizes } from './sizes.ts';

const TAILWIND_PATH = '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80';
/** Start-up (including a first `astro build`), sizes and shutdown, on top of the load itself. */
const OVERHEAD_S = 180;

async function fetchBody(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body}`);
  return body;
}

async function main(): Promise<number> {
  const settings = settingsFromEnv(process.env);
  stopServersOnExit();
  const watchdog = setTimeout(
    () => {
      console.error('The bench ran past its time limit; stopping.');
      void stopAll().finally(() => process.exit(1));
    },
    (loadSeconds(settings, 2) + OVERHEAD_S) * 1000,
  );
  watchdog.unref();

  console.log(`Node ${process.version}; starting the service (node scripts/start.ts) and the baseline.`);
  const service = startServer('service', 'scripts/start.ts', await freePort());
  await waitUntilOk(service, '/health');
  const body = await fetchBody(service.origin + TAILWIND_PATH);
  const bytes = Buffer.byteLength(body);

  const baseline = startServer('baseline', BASELINE_SCRIPT, await freePort(), { BENCH_BODY: body });
  await waitUntilOk(baseline, '/health');
  const baselineBytes = Buffer.byteLength(await fetchBody(baseline.origin + '/'));
  if (baselineBytes !== bytes) throw new Error(`Baseline body is ${baselineBytes} B, expected ${bytes} B.`);
  console.log(`Both answer ${bytes} B of JSON. Loading them alternately:`);

  const [baselineResult, serviceResult] = await alternate(
    [
      { label: 'baseline (node:http)', url: baseline.origin + TAILWIND_PATH },
      { label: 'GET /v1/tailwind', url: service.origin + TAILWIND_PATH },
    ],
    settings,
  );
  await stopAll();
  if (baselineResult === undefined || serviceResult === undefined) throw new Error('Missing load results.');
  printLoadTable(baselineResult, serviceResult, settings);

  await printSizes();
  clearTimeout(watchdog);
  if (!allAnswered([baselineResult, serviceResult])) {
    console.error('\nSome requests failed (non-2xx or socket errors): the numbers above are not valid.');
    return 1;
  }
  return 0;
}

try {
  process.exit(await main());
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  await stopAll();
  process.exit(1);
}
