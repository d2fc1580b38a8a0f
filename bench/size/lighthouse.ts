/**
 * Lighthouse scores of the served site, so a page that gets slower or less accessible shows up as
 * a number before a release, not in a user's complaint.
 *
 * Runs offline by construction: Debian's Chromium at /usr/bin/chromium (nothing downloads a
 * browser; chrome-launcher only spawns the given binary and puppeteer-core only connects to it),
 * Chrome's background networking switched off, and 'simulate' throttling, which models a slow
 * network from one fast local load instead of fetching anything. Every run has its own Chrome (a
 * clean profile, killed in `finally`) and its own time limit, and the whole phase has a deadline,
 * so an audit that waits on the missing internet cannot hang the script.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/browser/chromium.ts';

export const CHROME_FLAGS: readonly string[] = [
  '--headless=new',
  ...CHROMIUM_ARGS,
  '--disable-dev-shm-usage',
  '--disable-breakpad',
  '--disable-crash-reporter',
];

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export type FormFactor = 'mobile' | 'desktop';

/** Minimum scores (0–100) the product holds itself to, on every page and form factor. */
export const SCORE_BUDGETS: Readonly<Partial<Record<Category, number>>> = {
  performance: 95,
  accessibility: 95,
};

export interface FailingAudit {
  readonly category: Category;
  readonly title: string;
  readonly score: number;
  readonly displayValue: string | undefined;
  /** The first offending items (URL, message, selector), when the audit lists any. */
  readonly examples: readonly string[];
}

export interface LighthouseRun {
  readonly path: string;
  readonly formFactor: FormFactor;
  /** HTTP status the service answers a browser with for this path (404: page not built yet). */
  readonly status: number | undefined;
  /** Scores 0–100; null where Lighthouse could not score the category. */
  readonly scores: Readonly<Record<Category, number | null>> | undefined;
  /** Lighthouse's runtime error or warnings, or why the run did not finish. */
  readonly problem: string | undefined;
  /** The audits costing the most points, any category: why a score is not 100. */
  readonly failing: readonly FailingAudit[];
  readonly seconds: number;
}

export interface LighthouseOptions {
  readonly baseUrl: string;
  readonly paths: readonly string[];
  readonly formFactors: readonly FormFactor[];
  /** Limit for one run (Chrome start, load, audits). */
  readonly runTimeoutMs: number;
  /** Limit for all runs together; later runs are skipped once it passes. */
  readonly totalTimeoutMs: number;
  /** Called after each run, so progress shows during a slow phase. */
  readonly onRun?: (run: LighthouseRun) => void;
}

export type ScoreStatus = 'PASS' | 'BELOW' | 'MISSING' | 'ERROR';

export interface ScoreBudgetResult {
  readonly run: LighthouseRun;
  readonly category: Category;
  readonly min: number;
  readonly score: number | null;
  readonly status: ScoreStatus;
}

/** Chromes still running, so an interrupted script can kill them. */
const liveChromes = new Set<LaunchedChrome>();
let stopped = false;

/**
 * Stops Lighthouse for good (SIGINT, SIGTERM, the end of the script): kills every Chrome this
 * module started and makes later runs fail at once, so a loop cut short cannot launch another
 * Chrome (each has its own process group and would outlive the script).
 */
export function stopLighthouse(): void {
  stopped = true;
  for (const chrome of liveChromes) chrome.kill();
  liveChromes.clear();
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function statusOf(url: string): Promise<number | undefined> {
  return fetch(url, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(10_000) }).then(
    async (response) => {
      await response.body?.cancel();
      return response.status;
    },
    () => undefined,
  );
}

function toScore(score: number | null | undefined): number | null {
  return score === null || score === undefined ? null : Math.round(score * 100);
}

/** A short label for the first items of an audit's details table (a URL, a message, a node). */
function examplesOf(audit: Result['audits'][string], limit = 2): string[] {
  const details = audit.details;
  if (details === undefined || !('items' in details) || !Array.isArray(details.items)) return [];
  const labels: string[] = [];
  for (const item of details.items.slice(0, limit) as Record<string, unknown>[]) {
    const node = item['node'] as Record<string, unknown> | undefined;
    const label = [item['description'], item['url'], item['source'], node?.['snippet']].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    if (label !== undefined) labels.push(label.length > 160 ? `${label.slice(0, 157)}...` : label);
  }
  return labels;
}

/** The few audits that cost the most points; budgeted categories first. */
function failingAudits(lhr: Result, limit = 8): FailingAudit[] {
  const failing: (FailingAudit & { cost: number })[] = [];
  for (const category of CATEGORIES) {
    const budgeted = SCORE_BUDGETS[category] === undefined ? 0 : 1;
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (audit === undefined || audit.score === null || audit.score >= 0.9 || ref.weight === 0) continue;
      failing.push({
        category,
        title: audit.title,
        score: Math.round(audit.score * 100),
        displayValue: audit.displayValue,
        examples: examplesOf(audit),
        cost: budgeted * 1000 + ref.weight * (1 - audit.score),
      });
    }
  }
  return failing
    .sort((a, b) => b.cost - a.cost)
    .slice(0, limit)
    .map(({ category, title, score, displayValue, examples }) => ({
      category,
      title,
      score,
      displayValue,
      examples,
    }));
}

async function auditOnce(url: string, formFactor: FormFactor, timeoutMs: number) {
  const chrome = await launch({
    chromePath: ensureChromium(),
    chromeFlags: [...CHROME_FLAGS],
    logLevel: 'silent',
    handleSIGINT: false,
  });
  liveChromes.add(chrome);
  try {
    if (stopped) throw new Error('Lighthouse was stopped');
    const flags: Flags = {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      throttlingMethod: 'simulate',
      maxWaitForLoad: Math.min(30_000, timeoutMs),
      maxWaitForFcp: Math.min(20_000, timeoutMs),
      disableFullPageScreenshot: true,
    };
    const config: Config | undefined = formFactor === 'desktop' ? desktopConfig : undefined;
    const result = await withTimeout(lighthouse(url, flags, config), timeoutMs, `Lighthouse on ${url}`);
    if (result === undefined) throw new Error('Lighthouse returned no result');
    return result.lhr;
  } finally {
    chrome.kill();
    liveChromes.delete(chrome);
  }
}

type Outcome = Pick<LighthouseRun, 'scores' | 'problem' | 'failing'>;

/** One Lighthouse run turned into scores, or into the reason there are none. */
async function measure(url: string, formFactor: FormFactor, timeoutMs: number): Promise<Outcome> {
  try {
    const lhr = await auditOnce(url, formFactor, timeoutMs);
    const scores = Object.fromEntries(
      CATEGORIES.map((category) => [category, toScore(lhr.categories[category]?.score)]),
    ) as Record<Category, number | null>;
    const problems = [
      ...(lhr.runtimeError ? [`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`] : []),
      ...lhr.runWarnings.filter((warning) => warning !== lhr.runtimeError?.message),
      ...(lhr.configSettings.formFactor === formFactor
        ? []
        : [`asked for ${formFactor}, Lighthouse emulated ${lhr.configSettings.formFactor}`]),
    ];
    return {
      scores,
      problem: problems.length > 0 ? problems.join(' | ') : undefined,
      failing: failingAudits(lhr),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { scores: undefined, problem: message, failing: [] };
  }
}

/** Runs Lighthouse on each path and form factor in turn (one at a time: runs compete for CPU). */
export async function runLighthouse(options: LighthouseOptions): Promise<LighthouseRun[]> {
  const deadline = Date.now() + options.totalTimeoutMs;
  const runs: LighthouseRun[] = [];
  for (const formFactor of options.formFactors) {
    for (const path of options.paths) {
      if (stopped) return runs;
      const url = new URL(path, options.baseUrl).href;
      const started = Date.now();
      const status = await statusOf(url);
      const left = deadline - Date.now();
      const outcome: Outcome =
        left > 0
          ? await measure(url, formFactor, Math.min(options.runTimeoutMs, left))
          : { scores: undefined, problem: 'skipped: the total time limit was reached', failing: [] };
      // Lighthouse never scores a 4xx document, so scores after a 404 mean the page appeared
      // meanwhile (dist/ rebuilt by another build while the service was serving it).
      const scored =
        outcome.scores !== undefined && Object.values(outcome.scores).some((score) => score !== null);
      const statusNow = status === 404 && scored ? await statusOf(url) : status;
      const changed =
        statusNow === status ? [] : [`HTTP status changed during the run: ${status} → ${statusNow}`];
      const problem =
        [...changed, ...(outcome.problem === undefined ? [] : [outcome.problem])].join(' | ') || undefined;
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      const run: LighthouseRun = { path, formFactor, status: statusNow, ...outcome, problem, seconds };
      runs.push(run);
      options.onRun?.(run);
    }
  }
  return runs;
}

/** Each score budget on each run: a 404 page is MISSING, an unfinished run is ERROR. */
export function checkScoreBudgets(runs: readonly LighthouseRun[]): ScoreBudgetResult[] {
  const results: ScoreBudgetResult[] = [];
  for (const run of runs) {
    for (const category of CATEGORIES) {
      const min = SCORE_BUDGETS[category];
      if (min === undefined) continue;
      const score = run.scores?.[category] ?? null;
      const status: ScoreStatus =
        run.status === 404 ? 'MISSING' : score === null ? 'ERROR' : score >= min ? 'PASS' : 'BELOW';
      results.push({ run, category, min, score, status });
    }
  }
  return results;
}
