/**
 * Webhook delivery of recorded alerts. Each run POSTs every pending alert
 * (oldest first) to its rider's URL, signed (see `signature.ts`); a 2xx answer
 * marks it delivered, anything else counts a failed attempt that the next run
 * retries, until `WEBHOOK_MAX_ATTEMPTS` attempts have been made. Delivery is
 * at least once: a receiver that answered too slowly, or two overlapping runs,
 * can see an alert twice, so receivers de-duplicate on `X-WOS-Alert-Id`.
 */
import { riderSegmentLookup } from './segment-lookup.ts';
import { WEBHOOK_MAX_ATTEMPTS } from '../core/rider-rules.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { isoTime } from '../core/time.ts';
import type { Store } from '../store/database.ts';
import {
  listPendingDeliveries,
  markAlertAttemptFailed,
  markAlertDelivered,
  type AlertRecord,
  type PendingDelivery,
} from '../store/repositories/alerts.ts';
import { signWebhook } from './signature.ts';
import { checkWebhookUrl, type HostLookup, type WebhookTarget } from '../data/webhook-url.ts';
import { sendPinned, type WebhookSender } from './webhook-send.ts';

/** Per-delivery time limit when none is given: a receiver should answer at once and work later. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/** Alerts sent per run at most; the rest wait for the next run (the queue is oldest first). */
export const WEBHOOK_BATCH = 50;

/** Deliveries in flight at once, so one slow receiver does not hold up everyone else's. */
export const WEBHOOK_CONCURRENCY = 8;

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
    readonly peak_tailwind_kmh: number;
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
  /** Tests only: lets deliveries go to http://127.0.0.1 and localhost. */
  readonly allowInsecureLocalhost?: boolean;
  readonly lookup?: HostLookup;
  readonly limit?: number;
  readonly concurrency?: number;
}

export interface DeliverySummary {
  /** Pending alerts taken from the queue this run. */
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
}

/** The body for one alert. */
export function alertPayload(
  alert: AlertRecord,
  sentAtS: number,
  segmentName?: string,
): TailwindAlertPayload {
  return {
    type: 'tailwind_alert',
    alert: {
      id: alert.id,
      segment_id: alert.segmentId,
      ...(segmentName === undefined ? {} : { segment_name: segmentName }),
      window_start: isoTime(alert.windowStart),
      window_end: isoTime(alert.windowEnd),
      peak_tailwind_kmh: alert.peakTailwindKmh,
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
): Promise<string | null> {
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const nowS = Math.floor(deps.now() / 1000);
  const segment = deps.catalog
    ? await riderSegmentLookup(deps.catalog, deps.store.db, alert.riderId).get(alert.segmentId)
    : undefined;
  const body = JSON.stringify(alertPayload(alert, nowS, segment?.name));
  try {
    const status = await (deps.send ?? sendPinned)(to, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'wind-on-segment-alerts',
        'X-WOS-Alert-Id': alert.id,
        'X-WOS-Timestamp': String(nowS),
        'X-WOS-Signature': signWebhook(webhook.secret, nowS, body),
      },
      body,
      timeoutMs,
    });
    if (status >= 200 && status < 300) return null;
    return `HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
  } catch (error) {
    return describeFailure(error, timeoutMs);
  }
}

async function deliverOne(deps: DeliverDeps, pending: PendingDelivery): Promise<Outcome> {
  const { db } = deps.store;
  const { alert } = pending;
  if (alert.windowEnd <= Math.floor(deps.now() / 1000)) {
    await markAlertAttemptFailed(db, alert.id, 'not sent: the window ended before delivery');
    return 'expired';
  }
  const check = await checkWebhookUrl(pending.webhook.url, deps);
  if (!check.ok) {
    await markAlertAttemptFailed(db, alert.id, check.reason);
    return 'refused';
  }
  const failure = await post(deps, pending, check);
  if (failure === null) {
    await markAlertDelivered(db, alert.id, Math.floor(deps.now() / 1000));
    return 'delivered';
  }
  await markAlertAttemptFailed(db, alert.id, failure);
  return 'failed';
}

/**
 * One delivery run over the queue (`listPendingDeliveries`). Never throws for
 * a receiver's fault; store errors are thrown.
 */
export async function deliverPendingAlerts(deps: DeliverDeps): Promise<DeliverySummary> {
  const queue = await listPendingDeliveries(deps.store.db, { limit: deps.limit ?? WEBHOOK_BATCH });
  const counts = { delivered: 0, failed: 0, refused: 0, expired: 0 };
  let gaveUp = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const pending = queue[next++];
      if (!pending) continue;
      const outcome = await deliverOne(deps, pending);
      counts[outcome] += 1;
      if (outcome !== 'delivered' && pending.alert.attempts + 1 >= WEBHOOK_MAX_ATTEMPTS) gaveUp += 1;
    }
  };
  const workers = Math.max(1, Math.min(deps.concurrency ?? WEBHOOK_CONCURRENCY, queue.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { attempted: queue.length, ...counts, gaveUp };
}
