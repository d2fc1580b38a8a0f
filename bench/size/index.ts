/**
 * `npm run size`: the site's weight and quality budgets in one report: JavaScript shipped per
 * page (from the build) and Lighthouse scores (from the running service). A measurement, not a
 * test: it prints every table first, then exits 1 when a budget is over or below, 2 when
 * something could not be measured (and nothing was over), 0 otherwise, so CI can gate on it.
 *
 *   npm run size [-- --no-build] [--no-lighthouse] [--no-desktop] [--run-timeout=120] [--timeout=900]
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkJsBudgets, measurePages, type JsBudgetResult, type PageJs } from './js-budget.ts';
import { measureMapFiles } from './map-chunk.ts';
import {
  CATEGORIES,
  checkScoreBudgets,
  stopLighthouse,
  runLighthouse,
  type FormFactor,
  type LighthouseRun,
} from './lighthouse.ts';
import { CHROMIUM_PATH } from '../../scripts/browser/chromium.ts';
import { startService, type RunningService } from '../../scripts/service/launch.ts';
import { table } from '../table.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
/** `/segments/fr-alpe-d-huez`: the segment page with its map, profile and timeline (built-in catalog, demo forecast). */
const LIGHTHOUSE_PATHS = ['/', '/docs', '/pricing', '/segments/fr-alpe-d-huez'] as const;

const USAGE = `Usage: npm run size [-- options]
  --no-build          measure the existing dist/ instead of running astro build first
  --no-lighthouse     skip the Lighthouse runs (JS budget only)
  --no-desktop        Lighthouse with the mobile default only, not the desktop preset too
  --run-timeout=SEC   limit for one Lighthouse run (default 120)
  --timeout=SEC       limit for all Lighthouse runs together (default 900)`;

const OPTIONS = {
  build: { type: 'boolean', default: true },
  lighthouse: { type: 'boolean', default: true },
  desktop: { type: 'boolean', default: true },
  'run-timeout': { type: 'string', default: '120' },
  timeout: { type: 'string', default: '900' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parseCommandLine() {
  try {
    return parseArgs({ options: OPTIONS, allowNegative: true }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}
const args = parseCommandLine();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

function seconds(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    console.error(`--${name} must be a positive number of seconds.\n\n${USAGE}`);
    process.exit(2);
  }
  return parsed * 1000;
}
const runTimeoutMs = seconds(args['run-timeout'], 'run-timeout');
const totalTimeoutMs = seconds(args.timeout, 'timeout');

const bytes = (n: number) => n.toLocaleString('en-US');
const kb = (n: number) => (n === 0 ? '0 B' : `${(n / 1024).toFixed(1)} KB`);

/** The first `limit` items as lines, then how many more there are. */
function upTo<T>(limit: number, items: readonly T[], line: (item: T) => string): string[] {
  const shown = items.slice(0, limit).map(line);
  const rest = items.length - shown.length;
  return rest > 0 ? [...shown, `    … and ${rest} more`] : shown;
}

/** Prints the JS table, per-page file lists and budget lines; true when a budget is over. */
function reportJs(pages: readonly PageJs[]): boolean {
  const results = checkJsBudgets(pages);
  const budgetText = (result: JsBudgetResult | undefined) =>
    result ? `≤ ${kb(result.budget.maxGzipBytes)}` : '-';
  const rows = pages.map((page) => {
    const result = results.find(({ budget }) => budget.route === page.route);
    const lazy = page.lazyFiles.length > 0 ? bytes(page.lazyGzipBytes) : '-';
    const sizes = [page.files.length, page.inline.length].map(String);
    const status = result?.status ?? '-';
    return [
      page.route,
      page.file,
      ...sizes,
      bytes(page.bytes),
      bytes(page.gzipBytes),
      lazy,
      budgetText(result),
      status,
    ];
  });
  for (const result of results.filter(({ status }) => status === 'MISSING')) {
    rows.push([result.budget.route, '(no page)', '-', '-', '-', '-', '-', budgetText(result), 'MISSING']);
  }
  const headers = [
    'page',
    'html',
    'js files',
    'inline',
    'raw B',
    'gzip B',
    'lazy gzip B',
    'budget',
    'status',
  ];
  console.log(table(headers, rows, [2, 3, 4, 5, 6]));
  for (const page of pages) {
    const details = [
      ...upTo(12, page.files, (file) => `    ${file}`),
      ...page.inline.map(
        (js) => `    inline ${js.kind}: ${bytes(js.bytes)} B, ${bytes(js.gzipBytes)} B gzip`,
      ),
      ...upTo(3, page.lazyFiles, (file) => `    lazy ${file}`),
      ...page.unresolved.map((ref) => `    NOT FOUND / off-site (not counted): ${ref}`),
    ];
    if (details.length > 0) console.log(`  ${page.route}:\n${details.join('\n')}`);
  }
  console.log('');
  for (const result of results) {
    const actual = result.page ? `${kb(result.page.gzipBytes)} gzip` : 'page not built yet';
    console.log(
      `${result.status.padEnd(7)} JS ${result.budget.route}: ${actual} (budget ${budgetText(result)})`,
    );
  }
  return results.some(({ status }) => status === 'OVER');
}

/** Prints the score table, budget lines and what costs points; says what failed. */
function reportLighthouse(runs: readonly LighthouseRun[]): { below: boolean; errors: boolean } {
  const rows = runs.map((run) => [
    run.path,
    run.formFactor,
    run.status === 404 ? '404 (missing)' : String(run.status ?? '-'),
    ...CATEGORIES.map((category) => String(run.scores?.[category] ?? '-')),
  ]);
  console.log(`\n${table(['page', 'form factor', 'HTTP', ...CATEGORIES], rows, [3, 4, 5, 6])}\n`);
  const results = checkScoreBudgets(runs);
  for (const { run, category, min, score, status } of results) {
    const note = status === 'MISSING' ? ' (page answers 404, not built yet)' : '';
    const where = `${run.path} (${run.formFactor})`;
    console.log(`${status.padEnd(7)} ${category} ${where}: ${score ?? '-'} (budget ≥ ${min})${note}`);
  }
  for (const run of runs) {
    const built = [`${run.path}/index.html`, `${run.path}.html`].some((file) => existsSync(join(DIST, file)));
    const raced = built ? ', yet dist/ has it now: was dist/ rebuilt during the run?' : '';
    const head = run.status === 404 ? `page missing: the service answers 404${raced}` : run.problem;
    const lines = [
      ...(head === undefined ? [] : [`    ${head}`]),
      ...run.failing.flatMap((audit) => [
        `    ${audit.category}: ${audit.title} (${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''})`,
        ...audit.examples.map((example) => `      e.g. ${example}`),
      ]),
    ];
    if (lines.length > 0) console.log(`\n  ${run.path} (${run.formFactor}):\n${lines.join('\n')}`);
  }
  return {
    below: results.some(({ status }) => status === 'BELOW'),
    errors: results.some(({ status }) => status === 'ERROR'),
  };
}

let service: RunningService | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopLighthouse();
    void (service?.stop() ?? Promise.resolve()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// Killing Chrome after a run's time limit makes Lighthouse's own CDP listeners reject with nobody
// awaiting them ("Target closed"); that must not crash the script and orphan `npm start`.
process.on('unhandledRejection', (reason) => {
  const message = reason instanceof Error ? reason.message : String(reason);
  console.error(`  (ignored a stray rejection, usually from a Lighthouse run cut short: ${message})`);
});
process.on('uncaughtException', (error) => {
  console.error(error);
  stopLighthouse();
  void (service?.stop() ?? Promise.resolve()).finally(() => process.exit(2));
});

let over = false;
let unmeasured = false;

// 1. Build.
if (args.build) {
  const started = Date.now();
  process.stdout.write('Building the site (astro build)… ');
  const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (build.status !== 0) {
    console.log('failed.\n');
    console.log(build.stdout, build.stderr);
    process.exit(2);
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

// 2. JavaScript per page.
console.log('\nJavaScript per page (dist/; gzip level 9 per file, summed)\n');
try {
  if (reportJs(await measurePages(DIST))) over = true;
} catch (error) {
  console.log(`Could not measure: ${error instanceof Error ? error.message : String(error)}`);
  unmeasured = true;
}

// 2b. The map, loaded only by the pages that show one, after their first paint.
console.log('\nMap module, loaded with import() after first paint on /segments and /segments/<id> only\n');
try {
  const files = await measureMapFiles(DIST);
  const rows = files.map((file) => [file.role, file.file, bytes(file.bytes), bytes(file.gzipBytes)]);
  const total = files.reduce((sum, file) => sum + file.gzipBytes, 0);
  console.log(table(['part', 'file', 'raw B', 'gzip B'], [...rows, ['all', '', '', bytes(total)]], [2, 3]));
  if (files.length === 0) console.log('No map files in dist/: was the site built?');
} catch (error) {
  console.log(`Could not measure: ${error instanceof Error ? error.message : String(error)}`);
  unmeasured = true;
}

// 3. Lighthouse.
if (!args.lighthouse) {
  console.log('\nLighthouse: skipped (--no-lighthouse).');
} else {
  const formFactors: FormFactor[] = args.desktop ? ['mobile', 'desktop'] : ['mobile'];
  console.log(
    `\nLighthouse 13 (${CHROMIUM_PATH}, simulated throttling; ${formFactors.join(' + ')}; ` +
      `≤ ${runTimeoutMs / 1000} s per run, ≤ ${totalTimeoutMs / 1000} s in all)`,
  );
  let runs: LighthouseRun[] = [];
  try {
    service = await startService({}, ROOT);
    console.log(`Service: npm start on ${service.baseUrl}\n`);
    runs = await runLighthouse({
      baseUrl: service.baseUrl,
      paths: LIGHTHOUSE_PATHS,
      formFactors,
      runTimeoutMs,
      totalTimeoutMs,
      onRun: (run) =>
        console.log(`  ran ${run.formFactor.padEnd(7)} ${run.path.padEnd(9)} in ${run.seconds.toFixed(1)} s`),
    });
  } catch (error) {
    console.log(`Lighthouse could not run: ${error instanceof Error ? error.message : String(error)}`);
    unmeasured = true;
  } finally {
    stopLighthouse();
    await service?.stop();
    service = undefined;
  }
  if (runs.length > 0) {
    const { below, errors } = reportLighthouse(runs);
    if (below) over = true;
    if (errors) unmeasured = true;
  }
}

const exitCode = over ? 1 : unmeasured ? 2 : 0;
console.log(
  `\n${over ? 'Some budgets are over.' : unmeasured ? 'Not everything could be measured.' : 'All budgets met.'} (exit ${exitCode})`,
);
process.exit(exitCode);
