/**
 * What the channel tests share: a store with a Pro rider whose address is
 * verified (the sign-in service's `user` row, as sign-up and the link make
 * it), an alert on a real catalog segment, and the channel deps pointed at
 * the in-process SMTP server and push service double.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelDeps } from '../../src/alerts/channel-delivery.ts';
import { createMailer, type Mailer } from '../../src/data/mail/mailer.ts';
import { vapidKeys } from '../../src/rider/push-keys.ts';
import { withAuthTables } from '../../src/store/auth-tables.ts';
import type { Store } from '../../src/store/database.ts';
import { recordAlertOnce, type AlertRecord } from '../../src/store/repositories/alerts.ts';
import { savePushDevice, type PushDevice } from '../../src/store/repositories/push-subscriptions.ts';
import type { Rider } from '../../src/store/repositories/riders.ts';
import { acceptLoopback } from '../support/loopback-webhooks.ts';
import { catalog, proRider } from '../alerts/helpers.ts';
import { newBrowserKeys, type BrowserKeys, type PushServiceDouble } from './push-service.ts';

export const ORIGIN = 'https://wos.test';
/** 2026-11-21 10:20 UTC, a Saturday in CET. */
export const NOW_S = Math.floor(Date.UTC(2026, 10, 21, 10, 20) / 1000);

/** The sign-in service's user row of a rider, verified or not. */
export async function userRow(store: Store, rider: Rider, verified: boolean): Promise<void> {
  const at = new Date(NOW_S * 1000).toISOString();
  await withAuthTables(store.db)
    .insertInto('user')
    .values({
      id: rider.id,
      email: rider.email,
      name: rider.email,
      emailVerified: verified,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

export async function verifiedRider(store: Store, verified = true): Promise<Rider> {
  const rider = await proRider(store);
  await userRow(store, rider, verified);
  return rider;
}

/** An alert on Alpe d'Huez (Europe/Paris) from 14:00 to 16:00 UTC today. */
export async function alpeAlert(
  store: Store,
  rider: Rider,
  segmentId = 'fr-alpe-d-huez',
): Promise<AlertRecord> {
  const windowStart = NOW_S + 3 * 3600 + 40 * 60;
  const alert = await recordAlertOnce(
    store.db,
    rider.id,
    { segmentId, windowStart, windowEnd: windowStart + 2 * 3600, peakTailwindKmh: 18.46 },
    NOW_S,
  );
  if (!alert) throw new Error('alert not recorded');
  return alert;
}

export async function pushDevice(
  store: Store,
  rider: Rider,
  push: PushServiceDouble,
  name: string,
): Promise<{ device: PushDevice; keys: BrowserKeys }> {
  const keys = newBrowserKeys();
  const device = await savePushDevice(
    store.db,
    rider.id,
    { endpoint: push.endpoint(name), p256dh: keys.p256dh, auth: keys.auth, label: `Browser ${name}` },
    NOW_S,
  );
  return { device, keys };
}

/** Every mailer the deps below made: pooled SMTP connections stay open until closed. */
const mailers: Mailer[] = [];

export function closeMailers(): void {
  for (const mailer of mailers.splice(0)) mailer.close();
}

export interface Clock {
  now: number;
}

export function channelDeps(
  store: Store,
  smtpUrl: string | undefined,
  clock: Clock,
  options: { smtpTimeoutMs?: number; pushTimeoutMs?: number; catalog?: ChannelDeps['catalog'] } = {},
): ChannelDeps {
  const mailer = createMailer({
    smtpUrl,
    from: 'wind-on-segment <alerts@wos.test>',
    outbox: mkdtempSync(join(tmpdir(), 'wos-outbox-')),
    timeoutMs: options.smtpTimeoutMs ?? 2000,
    log: () => undefined,
  });
  mailers.push(mailer);
  return {
    store,
    now: () => clock.now * 1000,
    catalog: options.catalog ?? catalog,
    mailer,
    origin: ORIGIN,
    push: {
      keys: () => vapidKeys(store.db, NOW_S),
      contact: 'mailto:ops@wos.test',
      checkTarget: acceptLoopback,
      timeoutMs: options.pushTimeoutMs ?? 2000,
    },
  };
}
