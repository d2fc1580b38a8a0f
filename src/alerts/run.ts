/**
 * The alert job as the schedulers run it (the Vercel cron function and the
 * `npm start` interval): evaluate, then deliver. Delivery runs even when the
 * evaluation failed, so alerts recorded earlier still go out while the
 * weather service is down. Never throws: failures land in the summary and in
 * the one log line, and the next run starts afresh.
 */
import type { EvaluateDeps, EvaluateSummary } from './evaluate.ts';
import { evaluateAlerts } from './evaluate.ts';
import type { DeliverDeps, DeliverySummary } from './alert-delivery.ts';
import { deliverPendingAlerts } from './alert-delivery.ts';
import { messageOf } from './error-message.ts';
import { deliverChannels, type ChannelDeps, type ChannelSummary } from './channel-delivery.ts';

/**
 * Keeps two overlapping runs (two cron invocations, two servers) from both
 * evaluating and sending: Redis when `REDIS_URL` is set
 * (`src/store/shared-state/lock.ts`), else the store
 * (`src/store/repositories/job-state.ts`). `acquire` gives the release function,
 * or null when another run holds the lock, and rejects when it cannot tell.
 */
export interface JobLock {
  acquire(): Promise<(() => Promise<void>) | null>;
}

/**
 * How long the lock lasts if its holder never releases it (a crashed
 * instance): longer than a run may take (a Vercel function stops at 800 s at
 * most), shorter than the 15-minute schedule, so a crash costs one run.
 */
export const ALERT_JOB_LOCK_TTL_MS = 14 * 60_000;

export interface AlertJobDeps extends EvaluateDeps, Omit<DeliverDeps, 'store' | 'now' | 'catalog'> {
  /** Where the one summary line goes; `console.log` (or `console.error` on failure) by default. */
  readonly log?: (line: string, ok: boolean) => void;
  /** Without one, runs in one process never overlap (the interval skips) but instances are not coordinated. */
  readonly lock?: JobLock;
  /** Email and Web Push (`channel-delivery.ts`); without them only webhooks are sent. */
  readonly channels?: Omit<ChannelDeps, 'store' | 'now' | 'catalog'>;
}

export interface AlertJobSummary {
  /** False when the evaluation or the delivery failed. */
  readonly ok: boolean;
  /** Null when it threw (the store failed). */
  readonly evaluation: EvaluateSummary | null;
  readonly delivery: DeliverySummary | null;
  /** Email and push; null when they failed or are not configured. */
  readonly channels?: ChannelSummary | null;
  readonly errors: readonly string[];
  readonly durationMs: number;
  /** Set when the run did nothing because another run held the lock. */
  readonly skipped?: 'locked';
}

function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** The summary as one log line, for a cron log or a server console. */
export function formatAlertJobLine(summary: AlertJobSummary): string {
  const parts: string[] = [];
  const e = summary.evaluation;
  if (e) {
    const upstream = e.upstreamCalls === undefined ? '' : `, ${e.upstreamCalls} upstream`;
    const cells = e.cellsFetched === undefined ? '' : ` for ${count(e.cellsFetched, 'new cell')}`;
    const progress = `${count(e.pages, 'page')}${e.resumed ? ' resumed from a cursor' : ''}${e.complete ? '' : ', stopped early (the next run resumes)'}`;
    parts.push(
      `${count(e.watchesChecked, 'watch', 'watches')} with alerts on (${e.watchesWithoutPro} without Pro) in ${progress}`,
      `forecast: ${count(e.segmentsForecast, 'segment')} in ${count(e.forecastCalls, 'call')}${upstream}${cells} ` +
        `(${e.segmentsMissing} not in catalog, ${e.segmentsWithoutForecast} without data)`,
      `alerts: ${e.alertsRecorded} recorded, ${e.alertsAlreadyKnown} already known`,
    );
  }
  const d = summary.delivery;
  if (d) {
    parts.push(
      `webhooks: ${d.delivered}/${d.attempted} delivered, ${d.failed} failed, ${d.refused} refused, ` +
        `${d.expired} expired, ${d.gaveUp} given up, ${d.deferred} left for the next run`,
    );
  }
  const c = summary.channels;
  if (c) {
    parts.push(
      `email: ${c.emailSent} sent; push: ${c.pushSent} sent, ${c.devicesGone} devices gone; ` +
        `${c.failed} failed (retried later), ${c.dropped} not sent`,
    );
  }
  if (summary.errors.length > 0) parts.push(`errors: ${summary.errors.join(' | ')}`);
  return `alert job ${summary.ok ? 'ok' : 'FAILED'} in ${Math.round(summary.durationMs)} ms: ${parts.join('; ')}`;
}

/**
 * One run: evaluate every watch, then deliver pending alerts, under the lock
 * when there is one. A lock that cannot be asked (Redis away) fails the run
 * with a clear error rather than risk sending an alert twice; the next run
 * tries again.
 */
export async function runAlertJob(deps: AlertJobDeps): Promise<AlertJobSummary> {
  const log = deps.log ?? ((line: string, ok: boolean) => (ok ? console.log(line) : console.error(line)));
  if (!deps.lock) return runUnlocked(deps, log);
  const started = performance.now();
  let release: (() => Promise<void>) | null;
  try {
    release = await deps.lock.acquire();
  } catch (error) {
    const errors = [`the alert-job lock could not be taken (${messageOf(error)}); nothing evaluated or sent`];
    const summary = {
      ok: false,
      evaluation: null,
      delivery: null,
      errors,
      durationMs: performance.now() - started,
    };
    log(formatAlertJobLine(summary), false);
    return summary;
  }
  if (!release) {
    const summary = {
      ok: true,
      evaluation: null,
      delivery: null,
      errors: [],
      durationMs: 0,
      skipped: 'locked' as const,
    };
    log('alert job skipped: another run holds the lock', true);
    return summary;
  }
  try {
    return await runUnlocked(deps, log);
  } finally {
    await release();
  }
}

async function runUnlocked(
  deps: AlertJobDeps,
  log: (line: string, ok: boolean) => void,
): Promise<AlertJobSummary> {
  const started = performance.now();
  const errors: string[] = [];
  let evaluation: EvaluateSummary | null = null;
  let delivery: DeliverySummary | null = null;
  let channels: ChannelSummary | null = null;
  try {
    evaluation = await evaluateAlerts(deps);
    if (evaluation.error !== null) errors.push(evaluation.error);
  } catch (error) {
    errors.push(`evaluation failed: ${messageOf(error)}`);
  }
  try {
    delivery = await deliverPendingAlerts(deps);
  } catch (error) {
    errors.push(`delivery failed: ${messageOf(error)}`);
  }
  if (deps.channels) {
    try {
      channels = await deliverChannels({
        ...deps.channels,
        store: deps.store,
        now: deps.now,
        catalog: deps.catalog,
      });
    } catch (error) {
      errors.push(`email and push delivery failed: ${messageOf(error)}`);
    }
  }
  const summary = {
    ok: errors.length === 0,
    evaluation,
    delivery,
    channels,
    errors,
    durationMs: performance.now() - started,
  };
  log(formatAlertJobLine(summary), summary.ok);
  return summary;
}
