/**
 * The alert evaluator: which watched segments get a tailwind alert now.
 * Reads every watch with alerts on (across riders), resolves catalog and
 * riders' own segments alike (`segment-lookup.ts`), asks the forecast once per
 * run for all their segments, finds each segment's best rideable window
 * (daylight, dry, gusts under the limit) exactly as the MCP tools do by
 * default, and records an alert for every watch whose window's peak
 * reaches the rider's threshold.
 */
import { hasProAccess } from '../core/rider-rules.ts';
import type { TailwindWindow } from '../core/tailwind-window.ts';
import type { CachedForecastSource } from '../data/forecast/cache.ts';
import { type ForecastSource, MIN_USABLE_HOURS, type WindSeries } from '../data/forecast/types.ts';
import type { Segment, SegmentCatalog } from '../data/segments/types.ts';
import { forecastPointOf } from '../data/segments/segment-geometry.ts';
import { hoursAhead, segmentBestWindow } from '../data/segments/segment-window.ts';
import type { Store } from '../store/database.ts';
import {
  listAlertWatches,
  listLiveAlertWindows,
  type AlertWatch,
  type LiveAlertWindow,
} from '../store/repositories/alert-watches.ts';
import { recordAlertOnce } from '../store/repositories/alerts.ts';
import { resolveWatchedSegments, watchMayUse } from './segment-lookup.ts';

/** Segments per forecast request: keeps an Open-Meteo URL short while a run stays one call up to here. */
export const FORECAST_BATCH_SEGMENTS = 100;

export interface EvaluateDeps {
  readonly store: Pick<Store, 'db'>;
  readonly catalog: Pick<SegmentCatalog, 'get'>;
  readonly forecast: ForecastSource;
  /** Milliseconds since the epoch, like `McpDeps.now`. */
  readonly now: () => number;
}

export interface EvaluateSummary {
  /** Watches with alerts on, every rider's. */
  readonly watchesChecked: number;
  /** Of those, watches skipped because the rider has no Pro access (alerts are a Pro feature). */
  readonly watchesWithoutPro: number;
  /** Distinct segments asked of the forecast. */
  readonly segmentsForecast: number;
  /** Watched segment ids found neither in the catalog nor among their rider's own segments; skipped. */
  readonly segmentsMissing: number;
  /** Segments the forecast had no data for; skipped. */
  readonly segmentsWithoutForecast: number;
  /** Calls to `forecast.hourly`: one per run up to {@link FORECAST_BATCH_SEGMENTS} segments. */
  readonly forecastCalls: number;
  /** Requests the forecast cache sent upstream during the run, when the source is the cache. */
  readonly upstreamCalls?: number;
  readonly alertsRecorded: number;
  /** Windows that reached the threshold but were already alerted on (same or overlapping window). */
  readonly alertsAlreadyKnown: number;
  /** Why the run recorded nothing, when the forecast failed; null otherwise. */
  readonly error: string | null;
}

function hasStats(source: ForecastSource): source is CachedForecastSource {
  return typeof (source as Partial<CachedForecastSource>).stats === 'function';
}

/** All segments' series, one `hourly` call per batch (counted in `calls`); throws what the source throws. */
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

/**
 * One evaluation run. Re-running it records nothing new for a window already
 * alerted on: the store's unique key catches the same start, and a window
 * overlapping a recorded one of the same rider and segment is skipped (an
 * ongoing window's start moves with the current hour). A forecast failure is
 * reported in `error` and records nothing; store errors are thrown.
 */
export async function evaluateAlerts(deps: EvaluateDeps): Promise<EvaluateSummary> {
  const nowMs = deps.now();
  const nowS = Math.floor(nowMs / 1000);
  const { db } = deps.store;
  const watches = await listAlertWatches(db);
  const bySegment = new Map<string, AlertWatch[]>();
  let watchesWithoutPro = 0;
  for (const watch of watches) {
    if (!hasProAccess(watch, nowS)) {
      watchesWithoutPro += 1;
      continue;
    }
    const list = bySegment.get(watch.segmentId);
    if (list) list.push(watch);
    else bySegment.set(watch.segmentId, [watch]);
  }
  const segments = await resolveWatchedSegments(deps.catalog, db, [...bySegment.values()].flat());
  const base = {
    watchesChecked: watches.length,
    watchesWithoutPro,
    segmentsForecast: segments.length,
    segmentsMissing: bySegment.size - segments.length,
  };
  const upstreamBefore = hasStats(deps.forecast) ? deps.forecast.stats().upstreamCalls : undefined;
  const upstream = (): { upstreamCalls?: number } =>
    upstreamBefore === undefined || !hasStats(deps.forecast)
      ? {}
      : { upstreamCalls: deps.forecast.stats().upstreamCalls - upstreamBefore };

  const calls = { count: 0 };
  let forecast: (WindSeries | null)[];
  try {
    forecast = await forecastAll(deps.forecast, segments, calls);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      segmentsWithoutForecast: 0,
      forecastCalls: calls.count,
      ...upstream(),
      alertsRecorded: 0,
      alertsAlreadyKnown: 0,
      error: `forecast failed: ${message}`,
    };
  }

  const known = new Map<string, LiveAlertWindow[]>();
  for (const live of await listLiveAlertWindows(db, nowS)) {
    const key = `${live.riderId}\n${live.segmentId}`;
    known.set(key, [...(known.get(key) ?? []), live]);
  }
  let segmentsWithoutForecast = 0;
  let alertsRecorded = 0;
  let alertsAlreadyKnown = 0;
  for (const [i, segment] of segments.entries()) {
    const series = forecast[i];
    // Too few usable hours (impossible values dropped upstream): judged as no forecast, never as calm.
    if (!series || hoursAhead(series, nowMs).length < MIN_USABLE_HOURS) {
      segmentsWithoutForecast += 1;
      continue;
    }
    const window = segmentBestWindow(segment, series, nowMs);
    if (!window) continue;
    for (const watch of bySegment.get(segment.id) ?? []) {
      if (!watchMayUse(segment, watch.riderId)) continue;
      if (window.peak.tailwindKmh < watch.thresholdKmh) continue;
      if (overlapsKnown(known.get(`${watch.riderId}\n${segment.id}`) ?? [], window)) {
        alertsAlreadyKnown += 1;
        continue;
      }
      const alertWindow = {
        segmentId: segment.id,
        windowStart: window.start,
        windowEnd: window.end,
        peakTailwindKmh: window.peak.tailwindKmh,
      };
      if (await recordAlertOnce(db, watch.riderId, alertWindow, nowS)) alertsRecorded += 1;
      else alertsAlreadyKnown += 1;
    }
  }
  return {
    ...base,
    segmentsWithoutForecast,
    forecastCalls: calls.count,
    ...upstream(),
    alertsRecorded,
    alertsAlreadyKnown,
    error: null,
  };
}
