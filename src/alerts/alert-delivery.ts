/**
 * Webhook delivery of recorded alerts. Each run POSTs every pending alert
 * (oldest first) to its rider's URL, signed (see `signature.ts`); a 2xx answer
 * marks it delivered, anything else counts a failed attempt that the next run
 * retries, until `WEBHOOK_MAX_ATTEMPTS` attempts have been made. Delivery is
 * at least once: a receiver that answered too slowly, a run that crashed
 * between sending and recording, or two overlapping runs can deliver an
 * alert twice, so every attempt of one alert carries the same
 * `Idempotency-Key` (and `X-WOS-Alert-Id`) for the receiver to de-duplicate on.
 *
 * The queue is read a page at a time with a keyset cursor, so a run reaches
 * every pending alert once however long the queue, and deliveries go out
 * under two bounds (`host-limiter.ts`): {@link WEBHOOK_CONCURRENCY} in flight,
 * {@link WEBHOOK_PER_HOST} of them to one host.
 */
import { riderSegmentLookup } from '../rider/segment-lookup.ts';
import { WEBHOOK_MAX_ATTEMPTS } from '../core/rider-rules.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { localIso, localSpan } from '../core/local-time.ts';
import { isoTime } from '../core/time.ts';
import { segmentTimeZone } from '../data/time-zone/zone-at.ts';
import type { Store } from '../store/database.ts';
import {
  listPendingDeliveries,
  markAlertsAttemptFailed,
  markAlertsDelivered,
  type AlertRecord,
  type DeliveryCursor,
  type PendingDelivery,
} from '../store/repositories/alerts.ts';
import { signWebhook } from './signature.ts';
import { checkWebhookUrl, type WebhookTarget, type WebhookTargetCheck } from '../rider/webhook-url.ts';
import { runAgents, sendPinned, type WebhookSender } from './webhook-send.ts';
import { createHostLimiter } from './host-limiter.ts';
import { createWriteBehind } from './write-behind.ts';

/** Per-delivery time limit when none is given: a receiver should answer at once and work later. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/** Pending alerts read from the queue per query. */
export const WEBHOOK_PAGE_SIZE = 500;

/** Deliveries in flight at once, across receivers: a local receiver takes 16 × ~1 ms, a far one 16 × ~100 ms. */
export const WEBHOOK_CONCURRENCY = 16;

/** Deliveries in flight at once to one host, so one slow receiver holds 4 of the 16 slots at most. */
export const WEBHOOK_PER_HOST = 4;

/**
 * Deliveries one host may have waiting in a run. Beyond that its alerts stay
 * in the queue for the next run (not counted as attempts), so a host that
 * times out on every request holds a bounded share of memory and of the run;
 * at 4 in flight, more than a thousand alerts to one host would not fit in
 * one run's budget anyway unless it answers within 0.4 s.
 */
export const WEBHOOK_HOST_BACKLOG = 1_000;

/**
 * How long a run waits for a page's deliveries before reading the next page:
 * a page to responsive receivers goes out well within it (500 deliveries, 16
 * at a time, ~1–100 ms each), so only a slow host's queue outlasts it.
 */
const PAGE_WAIT_MS = 1_000;

/** How long a run keeps starting deliveries; the rest wait for the next run. */
export const DELIVERY_BUDGET_MS = 90_000;

/** The JSON body of a delivery. No rider id: the receiver knows whose URL it is. */
export interface TailwindAlertPayload {
  readonly type: 'tailwind_alert';
  readonly alert: {
    readonly id: string;
    readonly segment_id: string;
    /** Absent when the catalog no longer has the segment. */
    readonly segment_name?: string;
    /** ISO 8601 UTC, like every time in the API. */
    readonly window_start: string;
    readonly window_end: string;
    /** IANA zone at the segment's start ("UTC" when the segment is gone), and the window on its clock. */
    readonly time_zone: string;
    readonly window_start_local: string;
    readonly window_end_local: string;
    /** "Sat 28 Nov 08:00–10:00 CET": the window as the rider reads it, for a message as is. */
    readonly window_text: string;
    readonly peak_tailwind_kmh: number;
    /**
     * Only on a watch that asked for a chance: the share of ensemble members (percent, uncalibrated)
     * whose strongest hour in the window reaches the threshold, and a sentence saying so.
     */
    readonly chance_pct?: number;
    readonly chance_text?: string;
  };
  readonly sent_at: string;
}

export interface DeliverDeps {
  readonly store: Pick<Store, 'db'>;
  /** Milliseconds since the epoch, like `McpDeps.now`. */
  readonly now: () => number;
  /** How a delivery is sent; defaults to {@link sendPinned}, which connects to the checked address only. */
  readonly send?: WebhookSender;
  readonly timeoutMs?: number;
  /** Names segments in the payload (a rider's own segments too, through `segment-lookup.ts`). */
  readonly catalog?: Pick<SegmentCatalog, 'get'>;
  /** The webhook target rule; {@link checkWebhookUrl} (with the system's DNS) by default. */
  readonly checkTarget?: WebhookTargetCheck;
  /** Alerts taken from the queue per run at most; by default the budget alone bounds a run. */
  readonly limit?: number;
  /** Defaults to {@link WEBHOOK_CONCURRENCY}. */
  readonly concurrency?: number;
  /** Defaults to {@link WEBHOOK_PER_HOST}. */
  readonly perHost?: number;
  /** Defaults to {@link DELIVERY_BUDGET_MS}. */
  readonly deliveryBudgetMs?: number;
  /** Defaults to {@link WEBHOOK_PAGE_SIZE}. */
  readonly deliveryPageSize?: number;
}

export interface DeliverySummary {
  /** Pending alerts judged this run (sent, refused or expired). */
  readonly attempted: number;
  readonly delivered: number;
  /** Sent and answered with a non-2xx status, timed out or failed on the network. */
  readonly failed: number;
  /** Not sent: the URL breaks the rule in `webhook-url.ts`. Counted as a failed attempt. */
  readonly refused: number;
  /** Not sent: the window had ended. Counted as a failed attempt, so it leaves the queue. */
  readonly expired: number;
  /** Of the failures, those that used the last attempt: the alert is no longer retried. */
  readonly gaveUp: number;
  /** Read but left for the next run, not counted as an attempt: the budget ran out or the host's backlog was full. */
  readonly deferred: number;
}

/** The header receivers de-duplicate on: the same for every attempt of one alert. */
const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * The `Idempotency-Key` value of an alert: its id, as a structured-field
 * string (the quoted form the IETF httpapi draft gives the header). The
 * alert id is stable across retries and re-runs, and there is one alert per
 * rider, segment and window start (the alert table's unique key).
 */
export function idempotencyKeyOf(alertId: string): string {
  return `"${alertId}"`;
}

/** The body for one alert. */
export function alertPayload(
  alert: AlertRecord,
  sentAtS: number,
  segmentName?: string,
  timeZone = 'UTC',
): TailwindAlertPayload {
  return {
    type: 'tailwind_alert',
    alert: {
      id: alert.id,
      segment_id: alert.segmentId,
      ...(segmentName === undefined ? {} : { segment_name: segmentName }),
      window_start: isoTime(alert.windowStart),
      window_end: isoTime(alert.windowEnd),
      time_zone: timeZone,
      window_start_local: localIso(alert.windowStart, timeZone),
      window_end_local: localIso(alert.windowEnd, timeZone),
      window_text: localSpan(alert.windowStart, alert.windowEnd, timeZone),
      peak_tailwind_kmh: alert.peakTailwindKmh,
      ...(alert.chancePct == null
        ? {}
        : {
            chance_pct: alert.chancePct,
            chance_text:
              `${alert.chancePct}% of ensemble members reach your threshold in this window ` +
              '(a share of forecast runs, not a calibrated probability).',
          }),
    },
    sent_at: isoTime(sentAtS),
  };
}

type Outcome = 'delivered' | 'failed' | 'refused' | 'expired';

function describeFailure(error: unknown, timeoutMs: number): string {
  const timedOut = (e: unknown) => e instanceof Error && e.name === 'TimeoutError';
  if (timedOut(error) || (error instanceof Error && timedOut(error.cause)))
    return `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `network error: ${error instanceof Error ? error.message : String(error)}${cause}`;
}

async function post(
  deps: DeliverDeps,
  { alert, webhook }: PendingDelivery,
  to: WebhookTarget,
  agents?: ReturnType<typeof runAgents>,
): Promise<string | null> {
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const nowS = Math.floor(deps.now() / 1000);
  const segment = deps.catalog
    ? await riderSegmentLookup(deps.catalog, deps.store.db, alert.riderId).get(alert.segmentId)
    : undefined;
  const body = JSON.stringify(
    alertPayload(alert, nowS, segment?.name, segment === undefined ? 'UTC' : segmentTimeZone(segment)),
  );
  try {
    const status = await (deps.send ?? sendPinned)(to, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'wind-on-segment-alerts',
        'X-WOS-Alert-Id': alert.id,
        [IDEMPOTENCY_HEADER]: idempotencyKeyOf(alert.id),
        'X-WOS-Timestamp': String(nowS),
        'X-WOS-Signature': signWebhook(webhook.secret, nowS, body),
      },
      body,
      timeoutMs,
      ...(agents ? { agent: agents.agentFor(to) } : {}),
    });
    if (status >= 200 && status < 300) return null;
    return `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
  } catch (error) {
    return describeFailure(error, timeoutMs);
  }
}

interface Judged {
  readonly outcome: Outcome;
  /** Why the attempt failed; absent when delivered. */
  readonly error?: string;
}

/** Sends one alert (or finds it must not be sent); the store is written by the caller, in batches. */
async function deliverOne(
  deps: DeliverDeps,
  pending: PendingDelivery,
  agents?: ReturnType<typeof runAgents>,
): Promise<Judged> {
  const { alert } = pending;
  if (alert.windowEnd <= Math.floor(deps.now() / 1000)) {
    return { outcome: 'expired', error: 'not sent: the window ended before delivery' };
  }
  const check = await (deps.checkTarget ?? checkWebhookUrl)(pending.webhook.url);
  if (!check.ok) return { outcome: 'refused', error: check.reason };
  const failure = await post(deps, pending, check, agents);
  return failure === null ? { outcome: 'delivered' } : { outcome: 'failed', error: failure };
}

/** Outcomes written per batch: a crash loses at most a few batches, which are then sent again (at least once). */
export const OUTCOME_BATCH = 200;

/**
 * Outcomes waiting to be written: delivered ids, failed ids by error. Written
 * {@link OUTCOME_BATCH} at a time in a few statements rather than one update
 * per delivery, which at 100,000 alerts was most of the store's time, behind
 * the deliveries (`write-behind.ts`); `finish` waits for the last and throws
 * the first error.
 */
function outcomeWriter(deps: DeliverDeps) {
  let delivered: string[] = [];
  let failed = new Map<string, string[]>();
  let size = 0;
  const writes = createWriteBehind();
  const flush = (): void => {
    const [ids, byError] = [delivered, failed];
    delivered = [];
    failed = new Map();
    size = 0;
    writes.push(async () => {
      const { db } = deps.store;
      if (ids.length > 0) await markAlertsDelivered(db, ids, Math.floor(deps.now() / 1000));
      for (const [reason, failedIds] of byError) await markAlertsAttemptFailed(db, failedIds, reason);
    });
  };
  return {
    /** True once a write failed: the run should stop sending, as nothing more can be recorded. */
    get failed(): boolean {
      return writes.failed;
    },
    add(alertId: string, judged: Judged): void {
      if (judged.error === undefined) delivered.push(alertId);
      else {
        const ids = failed.get(judged.error);
        if (ids) ids.push(alertId);
        else failed.set(judged.error, [alertId]);
      }
      size += 1;
      if (size >= OUTCOME_BATCH) flush();
    },
    async finish(): Promise<void> {
      flush();
      await writes.settled();
    },
  };
}

/** Who receives a URL's deliveries, for the per-host bound; an unreadable URL is refused anyway. */
function hostOf(url: string): string {
  return URL.parse(url)?.hostname.toLowerCase() ?? '';
}

/**
 * One delivery run over the queue (`listPendingDeliveries`), a page at a
 * time, until the queue is walked, `limit` alerts were taken or the budget is
 * spent (deliveries not started by then wait for the next run). Never throws
 * for a receiver's fault; store errors are thrown.
 */
export async function deliverPendingAlerts(deps: DeliverDeps): Promise<DeliverySummary> {
  const started = performance.now();
  const budgetMs = deps.deliveryBudgetMs ?? DELIVERY_BUDGET_MS;
  const outOfTime = () => performance.now() - started >= budgetMs;
  const limit = deps.limit ?? Number.POSITIVE_INFINITY;
  const pageSize = Math.max(1, Math.min(deps.deliveryPageSize ?? WEBHOOK_PAGE_SIZE, limit));
  const perHost = deps.perHost ?? WEBHOOK_PER_HOST;
  const limiter = createHostLimiter({ total: deps.concurrency ?? WEBHOOK_CONCURRENCY, perHost });
  const counts = { delivered: 0, failed: 0, refused: 0, expired: 0, gaveUp: 0, deferred: 0 };
  let taken = 0;
  let failure: unknown = null;
  const deliveries: Promise<void>[] = [];

  const writer = outcomeWriter(deps);
  // Connections kept open for the run's own deliveries, closed when it ends.
  const agents = runAgents(perHost);
  const deliver = async (pending: PendingDelivery): Promise<void> => {
    if (outOfTime() || failure !== null || writer.failed) {
      counts.deferred += 1;
      return;
    }
    const judged = await deliverOne(deps, pending, agents);
    counts[judged.outcome] += 1;
    if (judged.outcome !== 'delivered' && pending.alert.attempts + 1 >= WEBHOOK_MAX_ATTEMPTS)
      counts.gaveUp += 1;
    writer.add(pending.alert.id, judged);
  };

  let after: DeliveryCursor | null = null;
  try {
    // At least one page is read, so a run reports what it left behind even when it has no time at all.
    for (
      let first = true;
      taken < limit && failure === null && !writer.failed && (first || !outOfTime());
      first = false
    ) {
      const page = await listPendingDeliveries(deps.store.db, {
        after,
        limit: Math.min(pageSize, limit - taken),
      });
      const last = page.at(-1);
      if (!last) break;
      after = { createdAt: last.alert.createdAt, alertId: last.alert.id };
      taken += page.length;
      for (const pending of page) {
        const host = hostOf(pending.webhook.url);
        if (limiter.outstanding(host) >= Math.max(WEBHOOK_HOST_BACKLOG, perHost)) {
          counts.deferred += 1;
          continue;
        }
        deliveries.push(
          limiter
            .run(host, () => deliver(pending))
            .catch((error: unknown) => {
              failure ??= error;
            }),
        );
      }
      // The next page once this one is nearly sent, or after a second when a slow host holds it up:
      // its queue then grows (up to WEBHOOK_HOST_BACKLOG) while every other host's alerts keep going out.
      await limiter.drainTo(deps.concurrency ?? WEBHOOK_CONCURRENCY, PAGE_WAIT_MS);
    }
  } catch (error) {
    // The store failed reading the queue: what is under way finishes and is recorded, then the run throws.
    failure ??= error;
  }
  await Promise.all(deliveries);
  agents.destroy();
  await writer.finish().catch((error: unknown) => {
    failure ??= error;
  });
  if (failure !== null) throw failure;
  const { gaveUp, deferred, ...outcomes } = counts;
  return { attempted: taken - deferred, ...outcomes, gaveUp, deferred };
}
