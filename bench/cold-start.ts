/**
 * Cold starts of the Vercel functions, on the real offline `vercel build`
 * output: each function is copied out alone (as the deployment holds it),
 * then a brand-new Node process imports its handler and answers one real
 * request. The figure is `performance.now()` when the answer's body has been
 * read, i.e. milliseconds since that process started: Node's own boot, the
 * import and the first answer, everything a cold invocation waits for
 * before its first byte (Vercel's own sandbox start aside). Median of
 * `COLD_START_RUNS` fresh processes per row, with each function's size and
 * file count, since both drive the time the platform spends loading it.
 * The rider store is PostgreSQL, as on Vercel (a database of its own on the
 * test server, `tests/store/postgres-server.ts`), migrated by one warm-up
 * round that is not counted: a deployment's first request after a cold start
 * finds its database migrated. The forecast is the demo one, so no run
 * waits on the network.
 *
 * Runs on its own (`node bench/cold-start.ts [output]`) or as the cold-start
 * section of `npm run bench` (`printColdStarts`); `node bench/cold-start.ts
 * <output> --before <baseline output> [runs]` times two builds interleaved,
 * for a before-and-after measured in the same minutes of a shared machine.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { admin, databaseUrl, postgresUnavailable } from '../tests/store/postgres-server.ts';
import { buildVercelOutput, standaloneFunction } from '../scripts/vercel/build-output.ts';
import { directorySize } from './bundle-sizes.ts';
import { answerProblem, findCalls } from './mcp-calls.ts';
import { REPO_ROOT } from '../scripts/service/launch.ts';

/** Fresh processes per row; the issue asks for the median of three. */
export const COLD_START_RUNS = 3;
/** What this section may add to `npm run bench`'s time limit: an offline `vercel build` and 24 fresh processes. */
export const COLD_START_SECONDS = 420;
/** The target for every function, milliseconds. */
export const COLD_START_TARGET_MS = 300;

const ORIGIN = 'https://wind-on-segment.vercel.test';
const CRON_SECRET = 'cold-start-bench-secret';
/** A deployment signs sessions with its own secret; 32+ characters, as better-auth asks. */
const AUTH_SECRET = 'cold-start-bench-auth-secret-0123456789abcdef';

/** One real request a function answers on its first invocation, and how to tell its answer is right. */
export interface ColdStartCase {
  readonly label: string;
  readonly fn: string;
  readonly url: string;
  readonly init: {
    readonly method: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  };
  readonly check: (status: number, body: string) => string | undefined;
}

const okStatus = (status: number, body: string): string | undefined =>
  status === 200 ? undefined : `HTTP ${status}: ${body.slice(0, 300)}`;

/** A `find_tailwind_segments` call (2026-07-28, plain JSON) from an address Vercel would report. */
function findCase(label: string, args: Record<string, unknown>): ColdStartCase {
  const [byCoordinates] = findCalls('2026-07-28', [{ lat: 45.06, lon: 6.03 }]);
  if (!byCoordinates) throw new Error('findCalls made no call.');
  const envelope = JSON.parse(byCoordinates.body) as { params: Record<string, unknown> };
  const body = JSON.stringify({ ...envelope, params: { ...envelope.params, arguments: args } });
  return {
    label,
    fn: 'api/mcp',
    url: `${ORIGIN}/mcp`,
    init: {
      method: 'POST',
      headers: { ...byCoordinates.headers, host: new URL(ORIGIN).host, 'x-real-ip': '198.51.100.7' },
      body,
    },
    check: answerProblem,
  };
}

/** The rows of the table: each function's common first request, and the heavier paths on their own. */
export const COLD_START_CASES: readonly ColdStartCase[] = [
  {
    label: 'GET /v1/tailwind',
    fn: 'api/rest',
    url: `${ORIGIN}/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80`,
    init: { method: 'GET', headers: {} },
    check: okStatus,
  },
  {
    label: 'GET /openapi.json',
    fn: 'api/rest',
    url: `${ORIGIN}/openapi.json`,
    init: { method: 'GET', headers: {} },
    check: okStatus,
  },
  findCase('find_tailwind_segments by coordinates', { latitude: 45.06, longitude: 6.03 }),
  findCase('find_tailwind_segments by place name', { place: "Bourg-d'Oisans" }),
  {
    label: 'GET /.well-known/oauth-authorization-server',
    fn: 'api/mcp',
    url: `${ORIGIN}/.well-known/oauth-authorization-server/api/auth`,
    init: { method: 'GET', headers: { host: new URL(ORIGIN).host } },
    check: okStatus,
  },
  {
    label: 'cron run (empty store)',
    fn: 'api/cron-alerts',
    url: `${ORIGIN}/api/cron-alerts`,
    init: { method: 'GET', headers: { authorization: `Bearer ${CRON_SECRET}` } },
    check: okStatus,
  },
];

/** Precedes the driver's result on stdout, after whatever the function itself logged. */
const RESULT_MARK = '@@cold-start-result@@';

/**
 * What each fresh process runs: import the handler, answer one request,
 * print the clock. `performance.now()` counts from the process's start.
 */
const DRIVER = `
const [entry, url, init] = process.argv.slice(1);
const module = await import(entry);
const imported = performance.now();
const response = await module.default.fetch(new Request(url, JSON.parse(init)));
const body = await response.text();
const answered = performance.now();
process.stdout.write('\\n' + ${JSON.stringify(RESULT_MARK)} + JSON.stringify({ imported, answered, status: response.status, body }));
`;

interface RunFigures {
  readonly importedMs: number;
  readonly answeredMs: number;
}

/** One fresh process, with the settings a Vercel deployment gives it. */
async function coldRun(entry: string, test: ColdStartCase, databaseUrl: string): Promise<RunFigures> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', DRIVER, entry, test.url, JSON.stringify(test.init)],
    {
      env: {
        PATH: process.env['PATH'] ?? '',
        VERCEL: '1',
        VERCEL_URL: new URL(ORIGIN).host,
        CRON_SECRET,
        BETTER_AUTH_SECRET: AUTH_SECRET,
        WOS_FORECAST: 'demo',
        DATABASE_URL: databaseUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${test.fn} (${test.label}) exited with ${String(code)}:\n${err}`);
  const result = JSON.parse(out.slice(out.lastIndexOf(RESULT_MARK) + RESULT_MARK.length)) as {
    imported: number;
    answered: number;
    status: number;
    body: string;
  };
  const problem = test.check(result.status, result.body);
  if (problem !== undefined)
    throw new Error(`${test.fn} (${test.label}) answered wrongly: ${problem}\n${err}`);
  return { importedMs: result.imported, answeredMs: result.answered };
}

export interface ColdStartRow {
  readonly fn: string;
  readonly label: string;
  readonly bytes: number;
  readonly files: number;
  /** Per run, in run order. */
  readonly importedMs: readonly number[];
  readonly answeredMs: readonly number[];
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

/** Every case, `runs` fresh processes each, runs interleaved so a busy moment does not hit one row only. */
export async function measureColdStarts(output: string, runs = COLD_START_RUNS): Promise<ColdStartRow[]> {
  const [rows = []] = await measureBuilds([output], runs);
  return rows;
}

/**
 * The same for several builds (a baseline and a change, say), interleaved
 * case by case and build by build, so both see the same moments of a
 * shared machine. One table of rows per build, in the order given.
 */
export async function measureBuilds(
  outputs: readonly string[],
  runs = COLD_START_RUNS,
): Promise<ColdStartRow[][]> {
  const noPostgres = await postgresUnavailable();
  if (noPostgres !== null) throw new Error(`The cold-start bench needs PostgreSQL: ${noPostgres}.`);
  const database = `wos_cold_start_${process.pid}`;
  await admin(`create database ${database}`);
  try {
    return await measureWith(outputs, runs, databaseUrl(database));
  } finally {
    await admin(`drop database if exists ${database} with (force)`);
  }
}

async function measureWith(
  outputs: readonly string[],
  runs: number,
  database: string,
): Promise<ColdStartRow[][]> {
  const builds = [];
  for (const output of outputs) {
    const copies = new Map<string, { entry: string; bytes: number; files: number }>();
    for (const fn of new Set(COLD_START_CASES.map((test) => test.fn))) {
      const copy = standaloneFunction(output, fn);
      if (!copy) throw new Error(`The build made no ${fn} function.`);
      // The size of the function as built plus what the upload adds: the copy holds both.
      copies.set(fn, { entry: copy.entry, ...(await directorySize(copy.dir)) });
    }
    const timings = COLD_START_CASES.map(() => ({ importedMs: [] as number[], answeredMs: [] as number[] }));
    builds.push({ copies, timings });
  }
  // Round 0 migrates the database and warms the file cache; it is not counted.
  for (let run = 0; run <= runs; run += 1) {
    for (const [i, test] of COLD_START_CASES.entries()) {
      for (const { copies, timings } of builds) {
        const copy = copies.get(test.fn);
        const timing = timings[i];
        if (!copy || !timing) throw new Error(`No copy of ${test.fn}.`);
        const figures = await coldRun(copy.entry, test, database);
        if (run === 0) continue;
        timing.importedMs.push(figures.importedMs);
        timing.answeredMs.push(figures.answeredMs);
      }
    }
  }
  return builds.map(({ copies, timings }) =>
    COLD_START_CASES.map((test, i) => {
      const copy = copies.get(test.fn);
      const timing = timings[i];
      if (!copy || !timing) throw new Error(`No figures for ${test.fn}.`);
      return { fn: test.fn, label: test.label, bytes: copy.bytes, files: copy.files, ...timing };
    }),
  );
}

const ms = (value: number): string => `${Math.round(value)} ms`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** The table `npm run bench` prints; builds the Vercel output offline when none is given. */
export async function printColdStarts(output?: string): Promise<boolean> {
  console.log(
    `\nCold starts (fresh Node process: start, import, first answer; median of ${COLD_START_RUNS})`,
  );
  let built = output;
  if (built === undefined) {
    console.log('  building the Vercel output offline (vercel build)…');
    built = buildVercelOutput(REPO_ROOT);
  }
  const rows = await measureColdStarts(built);
  let allWithin = true;
  for (const row of rows) {
    const answered = median(row.answeredMs);
    allWithin &&= answered <= COLD_START_TARGET_MS;
    console.log(
      `  ${row.fn.padEnd(16)} ${row.label.padEnd(42)} ${mb(row.bytes).padStart(9)} ${String(row.files).padStart(5)} files` +
        `  import ${ms(median(row.importedMs)).padStart(7)}  answered ${ms(answered).padStart(7)}` +
        `  (runs: ${row.answeredMs.map(ms).join(', ')})`,
    );
  }
  console.log(
    allWithin
      ? `  Every row within the ${COLD_START_TARGET_MS} ms target.`
      : `  Some rows above the ${COLD_START_TARGET_MS} ms target.`,
  );
  return allWithin;
}

/**
 * Two builds side by side: `node bench/cold-start.ts <output> --before
 * <baseline output> [runs]`, each a `.vercel/output` folder (as
 * `buildVercelOutput` leaves them); median and range per row.
 */
async function printComparison(after: string, before: string, runs: number): Promise<void> {
  const [beforeRows = [], afterRows = []] = await measureBuilds([before, after], runs);
  const range = (values: readonly number[]) =>
    `${ms(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
  console.log(
    `Cold starts, ${runs} interleaved fresh processes per row and build: median (range) to the answer`,
  );
  for (const [i, row] of afterRows.entries()) {
    const base = beforeRows[i];
    if (!base) continue;
    console.log(
      `  ${row.fn.padEnd(16)} ${row.label.padEnd(42)}` +
        `  before ${mb(base.bytes)} ${base.files} files ${range(base.answeredMs).padStart(18)}` +
        `  after ${mb(row.bytes)} ${row.files} files ${range(row.answeredMs).padStart(18)}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [output, flag, before, runs] = process.argv.slice(2);
  if (output !== undefined && flag === '--before' && before !== undefined) {
    await printComparison(output, before, Number(runs ?? 7));
  } else {
    await printColdStarts(output);
  }
}
