/**
 * The alert evaluator: which watched segments get a tailwind alert now.
 * Walks every watch with alerts on (across riders) a page at a time, resolves
 * catalog and riders' own segments alike (`segment-lookup.ts`), asks the
 * forecast once per run for each watched segment (in batched calls, which the
 * forecast cache answers per 0.05° cell), finds each segment's best rideable
 * window (daylight, dry, gusts under the limit) exactly as the MCP tools do by
 * default, and records an alert for every watch whose window's peak reaches
 * the rider's threshold, a page of alerts in a few statements.
 *
 * A run has a time budget: once it is spent, the run stops after the page in
 * hand and leaves a cursor (`cursor.ts`) where the next run carries on. The
 * cursor is saved after every page, so a run that crashes resumes there too.
 */
import { hasProAccess } from '../core/rider-rules.ts';
import { windowSpread, type EnsembleSample } from '../core/ensemble-chance.ts';
import type { EnsembleSource } from '../data/forecast/ensemble-types.ts';
import { legsOf } from '../data/segments/segment-geometry.ts';
import type { TailwindWindow } from '../core/tailwind-window.ts';
import type { CachedForecastSource } from '../data/forecast/cache.ts';
import { type ForecastSource, MIN_USABLE_HOURS, type WindSeries } from '../data/forecast/types.ts';
import type { Segment, SegmentCatalog } from '../data/segments/types.ts';
import { forecastPointOf } from '../data/segments/segment-geometry.ts';
import { hoursAhead, segmentBestWindow } from '../data/segments/segment-window.ts';
import type { Store } from '../store/database.ts';
import {
  listAlertWatchPage,
  listLiveAlertWindows,
  type AlertWatch,
  type AlertWatchCursor,
  type LiveAlertWindow,
} from '../store/repositories/alert-watches.ts';
import { recordAlertsOnce, type NewAlert } from '../store/repositories/alerts.ts';
import type { AlertCursorStore } from './cursor.ts';
import { messageOf } from './error-message.ts';
import { createWriteBehind } from './write-behind.ts';
import { resolveWatchedSegments, watchMayUse } from '../rider/segment-lookup.ts';
import { isOwnSegmentId } from '../core/rider-rules.ts';

/** Segments per forecast request: keeps an Open-Meteo URL short while a run stays one call up to here. */
export const FORECAST_BATCH_SEGMENTS = 100;

/**
 * Watches read per page: large enough that 100,000 watches take 50 queries,
 * small enough that a page's alerts and windows stay a few MB.
 */
export const WATCH_PAGE_SIZE = 2_000;

/**
 * How long an evaluation may keep starting pages. With delivery's budget
 * (`DELIVERY_BUDGET_MS`) a run stays well inside a Vercel function's default
 * 300 s limit and the 15-minute schedule; 100,000 watches take a fraction of it.
 */
export const EVALUATE_BUDGET_MS = 150_000;

export interface EvaluateDeps {
  readonly store: Pick<Store, 'db'>;
  readonly catalog: Pick<SegmentCatalog, 'get'>;
  readonly forecast: ForecastSource;
  /**
   * The ensemble for watches that ask for a chance (`minChancePct`); asked
   * only for those segments. Absent or failing: such watches get no alert.
   */
  readonly ensemble?: EnsembleSource | null;
  /** Milliseconds since the epoch, like `McpDeps.now`. */
  readonly now: () => number;
  /** Where a run that ran out of time leaves off; without one every run starts from the first watch. */
  readonly cursor?: AlertCursorStore;
  /** Defaults to {@link EVALUATE_BUDGET_MS}; a run always evaluates at least one page. */
  readonly evaluateBudgetMs?: number;
  /** Defaults to {@link WATCH_PAGE_SIZE}. */
  readonly watchPageSize?: number;
}

export interface EvaluateSummary {
  /** Watches with alerts on read this run, every rider's. */
  readonly watchesChecked: number;
  /** Of those, watches skipped because the rider has no Pro access (alerts are a Pro feature). */
  readonly watchesWithoutPro: number;
  /** Distinct segments asked of the forecast. */
  readonly segmentsForecast: number;
  /** Watched segment ids the catalog no longer has (e.g. an operator removed them); skipped. */
  readonly segmentsMissing: number;
  /** Segments the forecast had no data for; skipped. */
  readonly segmentsWithoutForecast: number;
  /** Calls to `forecast.hourly`: one per {@link FORECAST_BATCH_SEGMENTS} new segments of a page. */
  readonly forecastCalls: number;
  /** Requests the forecast cache sent upstream during the run, when the source is the cache. */
  readonly upstreamCalls?: number;
  /** Grid cells the cache did not hold and fetched (from the shared tier or upstream), when the source is the cache. */
  readonly cellsFetched?: number;
  readonly alertsRecorded: number;
  /** Windows that reached the threshold but were already alerted on (same or overlapping window). */
  readonly alertsAlreadyKnown: number;
  /** Windows that reached the threshold but not the watch's chance (or whose chance was unknown): no alert. */
  readonly alertsBelowChance: number;
  /** Calls to `ensemble.hourly`, for the segments whose watches ask for a chance. */
  readonly ensembleCalls: number;
  /** Pages of watches read. */
  readonly pages: number;
  /** True when the run started from a cursor an earlier run left. */
  readonly resumed: boolean;
  /** False when the run stopped before the last watch (budget spent or forecast failed); the cursor says where. */
  readonly complete: boolean;
  /** Why the run stopped early, when the forecast failed; null otherwise. */
  readonly error: string | null;
}

function hasStats(source: ForecastSource): source is CachedForecastSource {
  return typeof (source as Partial<CachedForecastSource>).stats === 'function';
}

/** The segments' series, one `hourly` call per batch (counted in `calls`); throws what the source throws. */
async function forecastAll(
  forecast: ForecastSource,
  segments: readonly Segment[],
  calls: { count: number },
): Promise<(WindSeries | null)[]> {
  const series: (WindSeries | null)[] = [];
  for (let i = 0; i < segments.length; i += FORECAST_BATCH_SEGMENTS) {
    const batch = segments.slice(i, i + FORECAST_BATCH_SEGMENTS);
    calls.count += 1;
    const answer = await forecast.hourly(batch.map(forecastPointOf));
    batch.forEach((_, j) => series.push(answer[j] ?? null));
  }
  return series;
}

function overlapsKnown(known: readonly LiveAlertWindow[], window: TailwindWindow): boolean {
  return known.some((k) => k.windowStart < window.end && k.windowEnd > window.start);
}

/** What a run found for one segment, kept for the run so a segment on many pages is judged once. */
type SegmentVerdict = TailwindWindow | 'missing' | 'no-forecast' | 'no-window';

interface RunCounts {
  watchesChecked: number;
  watchesWithoutPro: number;
  segmentsForecast: number;
  segmentsMissing: number;
  segmentsWithoutForecast: number;
  alertsRecorded: number;
  alertsAlreadyKnown: number;
  alertsBelowChance: number;
  ensembleCalls: number;
  pages: number;
}

/** The members over a judged segment, for watches that ask for a chance; null hours = none to be had. */
interface ChanceInput {
  readonly segment: Segment;
  readonly hours: readonly EnsembleSample[] | null;
}

/**
 * The key of a segment's verdict for a watch: the segment id, and for a
 * rider's own segment also the rider, so a watch can only ever use a verdict
 * its own rider's lookup produced (`segment-lookup.ts` finds an own segment
 * for its owner alone).
 */
function verdictKey(watch: Pick<AlertWatch, 'riderId' | 'segmentId'>): string {
  return isOwnSegmentId(watch.segmentId) ? `${watch.riderId}\n${watch.segmentId}` : watch.segmentId;
}

/**
 * Judges the page's segments not judged yet this run: segment look-up (the
 * catalog, and each rider's own segments for that rider), then the forecast
 * for the ones found, batched. Throws what the forecast throws.
 */
async function judgeSegments(
  deps: EvaluateDeps,
  watches: readonly AlertWatch[],
  verdicts: Map<string, SegmentVerdict>,
  counts: RunCounts,
  calls: { count: number },
  nowMs: number,
  judged: Map<string, Segment>,
): Promise<void> {
  const pending = new Map<string, AlertWatch>();
  for (const watch of watches) {
    const key = verdictKey(watch);
    if (!verdicts.has(key) && !pending.has(key)) pending.set(key, watch);
  }
  const found = await resolveWatchedSegments(deps.catalog, deps.store.db, [...pending.values()]);
  const byId = new Map(found.map((segment) => [segment.id, segment]));
  const segments: Segment[] = [];
  const keys: string[] = [];
  for (const [key, watch] of pending) {
    const segment = byId.get(watch.segmentId);
    if (segment && watchMayUse(segment, watch.riderId)) {
      segments.push(segment);
      keys.push(key);
    } else {
      verdicts.set(key, 'missing');
      counts.segmentsMissing += 1;
    }
  }
  const forecast = await forecastAll(deps.forecast, segments, calls);
  counts.segmentsForecast += segments.length;
  for (const [i, segment] of segments.entries()) {
    const key = keys[i] ?? segment.id;
    const series = forecast[i];
    // Too few usable hours (impossible values dropped upstream): judged as no forecast, never as calm.
    if (!series || hoursAhead(series, nowMs).length < MIN_USABLE_HOURS) {
      verdicts.set(key, 'no-forecast');
      counts.segmentsWithoutForecast += 1;
      continue;
    }
    verdicts.set(key, segmentBestWindow(segment, series, nowMs) ?? 'no-window');
    judged.set(key, segment);
  }
}

/**
 * Reads the ensemble for the page's segments that have a window and a watch
 * asking for a chance, and were not read yet this run: batched like the
 * forecast. A failing ensemble leaves them without members (no alert for
 * those watches: an unknown chance is not one above the rider's).
 */
async function judgeChances(
  deps: EvaluateDeps,
  watches: readonly AlertWatch[],
  verdicts: ReadonlyMap<string, SegmentVerdict>,
  judged: ReadonlyMap<string, Segment>,
  chances: Map<string, ChanceInput>,
  counts: RunCounts,
): Promise<void> {
  const wanted = new Map<string, Segment>();
  for (const watch of watches) {
    const key = verdictKey(watch);
    const segment = judged.get(key);
    if (watch.minChancePct === null || chances.has(key) || !segment) continue;
    if (typeof verdicts.get(key) === 'object') wanted.set(key, segment);
  }
  const keys = [...wanted.keys()];
  const segments = [...wanted.values()];
  for (let i = 0; i < segments.length; i += FORECAST_BATCH_SEGMENTS) {
    const batch = segments.slice(i, i + FORECAST_BATCH_SEGMENTS);
    let hours: (readonly EnsembleSample[] | null)[] = batch.map(() => null);
    if (deps.ensemble) {
      counts.ensembleCalls += 1;
      try {
        const series = await deps.ensemble.hourly(batch.map(forecastPointOf));
        hours = batch.map((_, j) => series[j]?.hours ?? null);
      } catch {
        // Unknown chance: the watches that need one get no alert this run.
      }
    }
    batch.forEach((segment, j) =>
      chances.set(keys[i + j] ?? segment.id, { segment, hours: hours[j] ?? null }),
    );
  }
}

/** The chance (percent) of a watch's threshold over the window, by each member's peak; null = unknown. */
function chanceOf(
  input: ChanceInput | undefined,
  window: TailwindWindow,
  thresholdKmh: number,
): number | null {
  if (!input?.hours) return null;
  const spread = windowSpread(legsOf(input.segment), input.hours, window, thresholdKmh, 'peak');
  return spread && Math.round(spread.chance * 100);
}

/** Records the page's alerts: the windows that reach each watch's threshold and are not known yet. */
async function recordPage(
  deps: EvaluateDeps,
  watches: readonly AlertWatch[],
  verdicts: ReadonlyMap<string, SegmentVerdict>,
  chances: ReadonlyMap<string, ChanceInput>,
  counts: RunCounts,
  nowS: number,
): Promise<void> {
  const first = watches[0];
  const last = watches.at(-1);
  if (!first || !last) return;
  const { db } = deps.store;
  const known = new Map<string, LiveAlertWindow[]>();
  const range = { fromRiderId: first.riderId, toRiderId: last.riderId };
  for (const live of await listLiveAlertWindows(db, nowS, range)) {
    const key = `${live.riderId}\n${live.segmentId}`;
    known.set(key, [...(known.get(key) ?? []), live]);
  }
  const fresh: NewAlert[] = [];
  for (const watch of watches) {
    const window = verdicts.get(verdictKey(watch));
    if (typeof window !== 'object' || window.peak.tailwindKmh < watch.thresholdKmh) continue;
    const chancePct =
      watch.minChancePct === null
        ? null
        : chanceOf(chances.get(verdictKey(watch)), window, watch.thresholdKmh);
    if (watch.minChancePct !== null && (chancePct === null || chancePct < watch.minChancePct)) {
      counts.alertsBelowChance += 1;
      continue;
    }
    if (overlapsKnown(known.get(`${watch.riderId}\n${watch.segmentId}`) ?? [], window)) {
      counts.alertsAlreadyKnown += 1;
      continue;
    }
    fresh.push({
      riderId: watch.riderId,
      window: {
        segmentId: watch.segmentId,
        windowStart: window.start,
        windowEnd: window.end,
        peakTailwindKmh: window.peak.tailwindKmh,
        chancePct,
      },
    });
  }
  const recorded = await recordAlertsOnce(db, fresh, nowS);
  counts.alertsRecorded += recorded;
  counts.alertsAlreadyKnown += fresh.length - recorded;
}

/**
 * One evaluation run. Re-running it records nothing new for a window already
 * alerted on: the store's unique key catches the same start, and a window
 * overlapping a recorded one of the same rider and segment is skipped (an
 * ongoing window's start moves with the current hour). A forecast failure
 * stops the run at the page it hit, reported in `error` (the pages before it
 * stand, the cursor points at that page); store errors are thrown. A cursor
 * store that fails is ignored: the run starts from the first watch, which
 * is safe, only slower.
 */
export async function evaluateAlerts(deps: EvaluateDeps): Promise<EvaluateSummary> {
  const started = performance.now();
  const budgetMs = deps.evaluateBudgetMs ?? EVALUATE_BUDGET_MS;
  const pageSize = deps.watchPageSize ?? WATCH_PAGE_SIZE;
  const nowMs = deps.now();
  const nowS = Math.floor(nowMs / 1000);
  const { db } = deps.store;
  const stats = hasStats(deps.forecast) ? deps.forecast : null;
  const before = stats?.stats();

  const counts: RunCounts = {
    watchesChecked: 0,
    watchesWithoutPro: 0,
    segmentsForecast: 0,
    segmentsMissing: 0,
    segmentsWithoutForecast: 0,
    alertsRecorded: 0,
    alertsAlreadyKnown: 0,
    alertsBelowChance: 0,
    ensembleCalls: 0,
    pages: 0,
  };
  const judged = new Map<string, Segment>();
  const chances = new Map<string, ChanceInput>();
  const calls = { count: 0 };
  const verdicts = new Map<string, SegmentVerdict>();
  const startedFrom = deps.cursor ? await deps.cursor.load().catch(() => null) : null;
  let cursor: AlertWatchCursor | null = startedFrom;
  let complete = false;
  let error: string | null = null;

  // One page is written while the next is read and judged, so a page's inserts overlap the forecast
  // work. At most one page is being written at a time, and the cursor moves past a page only once its
  // alerts are stored.
  const writes = createWriteBehind();
  for (;;) {
    const page = await listAlertWatchPage(db, { after: cursor, limit: pageSize });
    const withPro = page.watches.filter((watch) => hasProAccess(watch, nowS));
    try {
      await judgeSegments(deps, withPro, verdicts, counts, calls, nowMs, judged);
      await judgeChances(deps, withPro, verdicts, judged, chances, counts);
    } catch (failure) {
      error = `forecast failed: ${messageOf(failure)}`;
      break;
    }
    await writes.settled();
    writes.push(async () => {
      await recordPage(deps, withPro, verdicts, chances, counts, nowS);
      await deps.cursor?.save(page.next).catch(() => undefined);
    });
    if (page.watches.length > 0) counts.pages += 1;
    counts.watchesChecked += page.watches.length;
    counts.watchesWithoutPro += page.watches.length - withPro.length;
    cursor = page.next;
    if (cursor === null) {
      complete = true;
      break;
    }
    if (performance.now() - started >= budgetMs) break;
  }
  await writes.settled();

  const after = stats?.stats();
  return {
    watchesChecked: counts.watchesChecked,
    watchesWithoutPro: counts.watchesWithoutPro,
    segmentsForecast: counts.segmentsForecast,
    segmentsMissing: counts.segmentsMissing,
    segmentsWithoutForecast: counts.segmentsWithoutForecast,
    forecastCalls: calls.count,
    ...(before && after
      ? {
          upstreamCalls: after.upstreamCalls - before.upstreamCalls,
          cellsFetched: after.misses - before.misses,
        }
      : {}),
    alertsRecorded: counts.alertsRecorded,
    alertsAlreadyKnown: counts.alertsAlreadyKnown,
    alertsBelowChance: counts.alertsBelowChance,
    ensembleCalls: counts.ensembleCalls,
    pages: counts.pages,
    resumed: startedFrom !== null,
    complete,
    error,
  };
}
