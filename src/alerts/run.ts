/**
 * The alert job as the schedulers run it (the Vercel cron function and the
 * `npm start` interval): evaluate, then deliver. Delivery runs even when the
 * evaluation failed, so alerts recorded earlier still go out while the
 * weather service is down. Never throws: failures land in the summary and in
 * the one log line, and the next run starts afresh.
 */
import type { EvaluateDeps, EvaluateSummary } from './evaluate.ts';
import { evaluateAlerts } from './evaluate.ts';
import type { DeliverDeps, DeliverySummary } from './webhook.ts';
import { deliverPendingAlerts } from './webhook.ts';

export interface AlertJobDeps extends EvaluateDeps, Omit<DeliverDeps, 'store' | 'now' | 'catalog'> {
  /** Where the one summary line goes; `console.log` (or `console.error` on failure) by default. */
  readonly log?: (line: string, ok: boolean) => void;
}

export interface AlertJobSummary {
  /** False when the evaluation or the delivery failed. */
  readonly ok: boolean;
  /** Null when it threw (the store failed). */
  readonly evaluation: EvaluateSummary | null;
  readonly delivery: DeliverySummary | null;
  readonly errors: readonly string[];
  readonly durationMs: number;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
    parts.push(
      `${count(e.watchesChecked, 'watch', 'watches')} with alerts on (${e.watchesWithoutPro} without Pro)`,
      `forecast: ${count(e.segmentsForecast, 'segment')} in ${count(e.forecastCalls, 'call')}${upstream} ` +
        `(${e.segmentsMissing} not in catalog, ${e.segmentsWithoutForecast} without data)`,
      `alerts: ${e.alertsRecorded} recorded, ${e.alertsAlreadyKnown} already known`,
    );
  }
  const d = summary.delivery;
  if (d) {
    parts.push(
      `webhooks: ${d.delivered}/${d.attempted} delivered, ${d.failed} failed, ${d.refused} refused, ` +
        `${d.expired} expired, ${d.gaveUp} given up`,
    );
  }
  if (summary.errors.length > 0) parts.push(`errors: ${summary.errors.join(' | ')}`);
  return `alert job ${summary.ok ? 'ok' : 'FAILED'} in ${Math.round(summary.durationMs)} ms: ${parts.join('; ')}`;
}

/** One run: evaluate every watch, then deliver pending alerts. */
export async function runAlertJob(deps: AlertJobDeps): Promise<AlertJobSummary> {
  const started = performance.now();
  const errors: string[] = [];
  let evaluation: EvaluateSummary | null = null;
  let delivery: DeliverySummary | null = null;
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
  const summary = {
    ok: errors.length === 0,
    evaluation,
    delivery,
    errors,
    durationMs: performance.now() - started,
  };
  const log = deps.log ?? ((line: string, ok: boolean) => (ok ? console.log(line) : console.error(line)));
  log(formatAlertJobLine(summary), summary.ok);
  return summary;
}
