/**
 * The alert job's clock under `npm start`: an in-process interval. (On Vercel
 * the cron function in `api/_entries/cron-alerts.ts` takes its place; a serverless
 * instance cannot keep a timer.) `WOS_ALERTS_INTERVAL_MS` sets the period:
 * default 15 minutes, `0` turns the job off (e.g. when an external scheduler
 * calls the cron endpoint instead, or several servers share one database and
 * only one of them should run it).
 */
import { runAlertJob, type AlertJobDeps, type AlertJobSummary } from './run.ts';

/** The setting that sets the period (read by `src/app/settings.ts`), named in the log lines. */
export const ALERTS_INTERVAL_ENV = 'WOS_ALERTS_INTERVAL_MS';

/** Matches the Vercel cron schedule, and the forecast cache refreshes hourly, so more often gains little. */
export const DEFAULT_ALERTS_INTERVAL_MS = 15 * 60_000;

/** Bounds of the setting (enforced by the settings schema): at least a minute (each run reads every watch), at most a day. */
export const MIN_ALERTS_INTERVAL_MS = 60_000;
export const MAX_ALERTS_INTERVAL_MS = 24 * 3_600_000;

export interface AlertIntervalOptions {
  /** Delay before the first run; 0 (the default) runs it right after start. */
  readonly firstRunAfterMs?: number;
  /** Called after each run, e.g. by tests. */
  readonly onRun?: (summary: AlertJobSummary) => void;
}

/**
 * Runs the job now and then every `everyMs`. A tick that comes while the last
 * run is still going is skipped, so runs never overlap within the process.
 * The timers do not keep the process alive. `stop()` clears them and resolves
 * once a run in progress has finished, so the store can be closed after it.
 */
export function startAlertInterval(
  deps: AlertJobDeps,
  everyMs: number,
  options: AlertIntervalOptions = {},
): () => Promise<void> {
  if (!Number.isFinite(everyMs) || everyMs <= 0) throw new RangeError('everyMs must be a positive number');
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = (): void => {
    if (stopped || running) return;
    running = runAlertJob(deps)
      .then((summary) => options.onRun?.(summary))
      .catch((error: unknown) => console.error('alert job: unexpected failure', error))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(tick, options.firstRunAfterMs ?? 0);
  const interval = setInterval(tick, everyMs);
  first.unref();
  interval.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(interval);
    await running;
  };
}

/**
 * `npm start`'s one call: starts the interval the settings ask for and says
 * so, or returns null when `WOS_ALERTS_INTERVAL_MS=0` turns the job off.
 */
export function startAlerts(everyMs: number | null, deps: AlertJobDeps): (() => Promise<void>) | null {
  if (everyMs === null) {
    console.log(`tailwind alerts: off (${ALERTS_INTERVAL_ENV}=0)`);
    return null;
  }
  const period = everyMs % 60_000 === 0 ? `${everyMs / 60_000} min` : `${everyMs / 1000} s`;
  console.log(`tailwind alerts: evaluated every ${period} (${ALERTS_INTERVAL_ENV})`);
  return startAlertInterval(deps, everyMs);
}
