/**
 * Email and Web Push delivery of recorded alerts, after the webhook's in the
 * same job run. The store keeps one row per alert, channel and target
 * (`alert-deliveries.ts`), so each window reaches each address and device
 * at most once; a failure is retried with back-off (`delivery-backoff.ts`)
 * and its reason is shown on the settings page. What is sent:
 *
 * - email, when the rider has email alerts on and a verified address (the
 *   row is only made then), through the mailer (SMTP or the outbox);
 * - push, to every device the rider subscribed while push is on; a device
 *   the push service says is gone (404, 410) is forgotten at once.
 *
 * A window that ended before its turn is not sent (the row says why).
 */
import pLimit from 'p-limit';
import { segmentTimeZone } from '../data/time-zone/zone-at.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { MailError, type Mailer } from '../data/mail/mailer.ts';
import type { VapidKeys } from '../rider/push-keys.ts';
import { riderSegmentLookup } from '../rider/segment-lookup.ts';
import { checkWebhookUrl, type WebhookTargetCheck } from '../rider/webhook-url.ts';
import type { Store } from '../store/database.ts';
import {
  addDueDeliveries,
  claimDeliveries,
  recordDelivery,
  type ClaimedDelivery,
  type DeliveryOutcome,
} from '../store/repositories/alert-deliveries.ts';
import { findAlerts, type AlertRecord } from '../store/repositories/alerts.ts';
import { findRiderById } from '../store/repositories/riders.ts';
import { findRiderChannels, unsubscribeTokenOf } from '../store/repositories/rider-channels.ts';
import { findPushDevice, forgetPushDevice } from '../store/repositories/push-subscriptions.ts';
import { alertMail } from './alert-mail.ts';
import { alertWords, type AlertWords } from './alert-message.ts';
import { sendPush, type PushTransport } from './push-send.ts';
import { isoTime } from '../core/time.ts';

/** Deliveries claimed per page. */
const CLAIM_PAGE = 100;
/** Mails and pushes in flight at once: an SMTP server takes a handful of connections per client. */
const CHANNEL_CONCURRENCY = 4;
/** How long a run keeps claiming new deliveries. */
export const CHANNEL_BUDGET_MS = 60_000;

export interface ChannelDeps {
  readonly store: Pick<Store, 'db'>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly catalog?: Pick<SegmentCatalog, 'get'>;
  readonly mailer: Mailer;
  /** The public origin the links in mails and notifications point to. */
  readonly origin: string;
  readonly push: {
    readonly keys: () => Promise<VapidKeys>;
    readonly contact: string;
    /** The endpoint rule; the webhook's ({@link checkWebhookUrl}) by default. */
    readonly checkTarget?: WebhookTargetCheck;
    readonly transport?: PushTransport;
    readonly timeoutMs?: number;
  };
  readonly budgetMs?: number;
}

export interface ChannelSummary {
  readonly added: number;
  readonly emailSent: number;
  readonly pushSent: number;
  readonly failed: number;
  readonly dropped: number;
  /** Devices forgotten because their push service said they are gone. */
  readonly devicesGone: number;
}

/** The push notification's JSON: what the service worker shows, and the window for an app to read. */
export interface AlertPushPayload {
  readonly type: 'tailwind_alert';
  readonly title: string;
  readonly body: string;
  readonly url: string;
  /** One notification per alert: a repeat replaces rather than stacks. */
  readonly tag: string;
  readonly alert: {
    readonly id: string;
    readonly segment_id: string;
    readonly window_start: string;
    readonly window_end: string;
    readonly time_zone: string;
    readonly window_start_local: string;
    readonly window_end_local: string;
    readonly window_text: string;
    readonly peak_tailwind_kmh: number;
  };
}

export function alertPushPayload(alert: AlertRecord, words: AlertWords): AlertPushPayload {
  return {
    type: 'tailwind_alert',
    title: words.title,
    body: `${words.when}: ${words.strength}`,
    url: words.link,
    tag: `alert-${alert.id}`,
    alert: {
      id: alert.id,
      segment_id: alert.segmentId,
      window_start: isoTime(alert.windowStart),
      window_end: isoTime(alert.windowEnd),
      time_zone: words.timeZone,
      window_start_local: words.windowStartLocal,
      window_end_local: words.windowEndLocal,
      window_text: words.when,
      peak_tailwind_kmh: alert.peakTailwindKmh,
    },
  };
}

async function wordsFor(deps: ChannelDeps, alert: AlertRecord): Promise<AlertWords> {
  const segment = deps.catalog
    ? await riderSegmentLookup(deps.catalog, deps.store.db, alert.riderId).get(alert.segmentId)
    : undefined;
  const named = segment && { name: segment.name, timeZone: segmentTimeZone(segment) };
  return alertWords(alert, named, deps.origin);
}

async function sendEmail(deps: ChannelDeps, alert: AlertRecord, words: AlertWords): Promise<DeliveryOutcome> {
  const { db } = deps.store;
  const [rider, channels] = await Promise.all([
    findRiderById(db, alert.riderId),
    findRiderChannels(db, alert.riderId),
  ]);
  if (!rider || !channels) return { kind: 'dropped', error: 'not sent: the account is gone' };
  if (!channels.emailAlerts) return { kind: 'dropped', error: 'not sent: email alerts were turned off' };
  const token = await unsubscribeTokenOf(db, alert.riderId);
  const query = `token=${encodeURIComponent(token ?? '')}`;
  try {
    await deps.mailer.send(
      alertMail({
        to: rider.email,
        alertId: alert.id,
        words,
        unsubscribeUrl: `${deps.origin}/api/rider/unsubscribe?${query}`,
        unsubscribePage: `${deps.origin}/unsubscribe?${query}`,
        settingsUrl: `${deps.origin}/settings`,
        host: new URL(deps.origin).hostname || 'wind-on-segment',
      }),
    );
    return { kind: 'delivered' };
  } catch (error) {
    return { kind: 'failed', error: error instanceof MailError ? error.detail : 'mail not sent' };
  }
}

async function sendToDevice(
  deps: ChannelDeps,
  delivery: ClaimedDelivery,
  alert: AlertRecord,
  words: AlertWords,
  nowS: number,
): Promise<DeliveryOutcome | 'gone'> {
  const { db } = deps.store;
  const [device, channels] = await Promise.all([
    findPushDevice(db, delivery.target),
    findRiderChannels(db, alert.riderId),
  ]);
  if (!device || device.riderId !== alert.riderId)
    return { kind: 'dropped', error: 'not sent: the device was removed' };
  if (!channels?.pushAlerts) return { kind: 'dropped', error: 'not sent: push alerts were turned off' };
  const result = await sendPush(device, JSON.stringify(alertPushPayload(alert, words)), {
    keys: await deps.push.keys(),
    contact: deps.push.contact,
    checkTarget: deps.push.checkTarget ?? ((url) => checkWebhookUrl(url)),
    ttlS: alert.windowEnd - nowS,
    ...(deps.push.transport ? { transport: deps.push.transport } : {}),
    ...(deps.push.timeoutMs === undefined ? {} : { timeoutMs: deps.push.timeoutMs }),
  });
  if (result.kind === 'sent') return { kind: 'delivered' };
  if (result.kind === 'failed') return { kind: 'failed', error: result.error };
  await forgetPushDevice(db, device.id);
  if (result.kind === 'refused')
    return { kind: 'dropped', error: `not sent, device removed: ${result.error}` };
  return 'gone';
}

/** One run over the due email and push deliveries. Never throws for a receiver's fault; store errors are thrown. */
export async function deliverChannels(deps: ChannelDeps): Promise<ChannelSummary> {
  const started = performance.now();
  const budgetMs = deps.budgetMs ?? CHANNEL_BUDGET_MS;
  const { db } = deps.store;
  const added = await addDueDeliveries(db, Math.floor(deps.now() / 1000));
  const counts = { emailSent: 0, pushSent: 0, failed: 0, dropped: 0, devicesGone: 0 };
  const limit = pLimit(CHANNEL_CONCURRENCY);
  while (performance.now() - started < budgetMs) {
    const nowS = Math.floor(deps.now() / 1000);
    const claimed = await claimDeliveries(db, nowS, CLAIM_PAGE);
    if (claimed.length === 0) break;
    const alerts = new Map(
      (await findAlerts(db, [...new Set(claimed.map((c) => c.alertId))])).map((a) => [a.id, a]),
    );
    await Promise.all(
      claimed.map((delivery) =>
        limit(async () => {
          const alert = alerts.get(delivery.alertId);
          let outcome: DeliveryOutcome | 'gone';
          if (!alert) outcome = { kind: 'dropped', error: 'not sent: the alert is gone' };
          else if (alert.windowEnd <= nowS)
            outcome = { kind: 'dropped', error: 'not sent: the window ended first' };
          else {
            const words = await wordsFor(deps, alert);
            outcome =
              delivery.channel === 'email'
                ? await sendEmail(deps, alert, words)
                : await sendToDevice(deps, delivery, alert, words, nowS);
          }
          if (outcome === 'gone') {
            counts.devicesGone += 1;
            outcome = { kind: 'dropped', error: 'not sent: the push service says this device is gone' };
          }
          await recordDelivery(db, delivery, outcome, nowS);
          if (outcome.kind === 'delivered')
            counts[delivery.channel === 'email' ? 'emailSent' : 'pushSent'] += 1;
          else counts[outcome.kind] += 1;
        }),
      ),
    );
  }
  return { added, ...counts };
}
