/**
 * Email and Web Push delivery of a tailwind alert, against a real SMTP
 * server and a push service double in this process: what arrives (the MIME
 * message, the decrypted payload), that each window arrives once per address
 * and device, and what happens when the server refuses or stalls, or the
 * push service says the device is gone or never answers: a clear reason in
 * the store, nothing lost (a retry after the back-off), nothing twice. Run on
 * SQLite (`alert-channels.test.ts`) and PostgreSQL
 * (`tests/integration/riders/channels-postgres.test.ts`).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverChannels } from '../../src/alerts/channel-delivery.ts';
import type { Store } from '../../src/store/database.ts';
import { listDeliveries } from '../../src/store/repositories/alert-deliveries.ts';
import { listPushDevices } from '../../src/store/repositories/push-subscriptions.ts';
import { findRiderChannels } from '../../src/store/repositories/rider-channels.ts';
import { unsubscribe } from '../../src/account/unsubscribe.ts';
import { catalog } from '../alerts/helpers.ts';
import type { TestStore } from '../auth/support/stores.ts';
import { decryptPush, startPushService, type PushServiceDouble } from './push-service.ts';
import { headersOf, startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';
import {
  alpeAlert,
  closeMailers,
  channelDeps,
  NOW_S,
  ORIGIN,
  pushDevice,
  verifiedRider,
  type Clock,
} from './fixtures.ts';

export function describeAlertChannels(engine: string, makeStore: () => Promise<TestStore>): void {
  let smtp: SmtpCatcher;
  let push: PushServiceDouble;
  let test: TestStore;
  let store: Store;
  let clock: Clock;

  beforeAll(async () => {
    [smtp, push] = await Promise.all([startSmtpCatcher(), startPushService()]);
  });
  afterAll(async () => {
    await Promise.all([smtp.close(), push.close()]);
  });
  beforeEach(async () => {
    test = await makeStore();
    store = test.store;
    clock = { now: NOW_S };
    smtp.messages.splice(0);
    smtp.mode = 'accept';
    push.received.splice(0);
    push.behaviour.clear();
  });
  afterEach(async () => {
    closeMailers();
    await test.dispose();
  });

  describe(`an alert by email and push (${engine})`, () => {
    it('reaches the verified address and each device once, in the segment’s local time', async () => {
      const rider = await verifiedRider(store);
      const alert = await alpeAlert(store, rider);
      const phone = await pushDevice(store, rider, push, 'phone');
      const laptop = await pushDevice(store, rider, push, 'laptop');
      const deps = channelDeps(store, smtp.url, clock);
      const name = catalog.get('fr-alpe-d-huez')?.name;

      const first = await deliverChannels(deps);
      expect(first).toMatchObject({ added: 3, emailSent: 1, pushSent: 2, failed: 0, dropped: 0 });

      const caught = await smtp.waitForMail(() => true);
      const mail = caught.mail;
      expect(caught.to).toEqual([rider.email]);
      // 14:00–16:00 UTC is 15:00–17:00 in Paris (CET) on Saturday 21 November 2026.
      expect(mail.subject).toBe(`Tailwind on ${name}: Sat 21 Nov 15:00–17:00 CET`);
      expect(mail.text).toContain('Sat 21 Nov 15:00–17:00 CET: up to 18.5 km/h of tailwind.');
      expect(mail.html).toContain('Sat 21 Nov 15:00–17:00 CET');
      expect(mail.messageId).toBe(`<alert-${alert.id}@wos.test>`);
      const headers = headersOf(caught);
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      expect(headers).toMatch(
        /^List-Unsubscribe: <https:\/\/wos\.test\/api\/rider\/unsubscribe\?token=[\w-]{43}>\r$/m,
      );
      expect(mail.text).toMatch(/https:\/\/wos\.test\/unsubscribe\?token=[\w-]{43}/);
      expect(mail.html).toMatch(/href="https:\/\/wos\.test\/unsubscribe\?token=[\w-]{43}"/);
      expect(mail.html).toContain(`href="${ORIGIN}/segments/fr-alpe-d-huez"`);

      expect(push.received.map((m) => m.path).sort()).toEqual(['/push/laptop', '/push/phone']);
      for (const message of push.received) {
        expect(message.headers['content-encoding']).toBe('aes128gcm');
        expect(message.headers['authorization']).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
        expect(Number(message.headers['ttl'])).toBe(alert.windowEnd - NOW_S);
        const keys = message.path.endsWith('phone') ? phone.keys : laptop.keys;
        const payload = JSON.parse(decryptPush(message.body, keys)) as Record<
          string,
          Record<string, unknown>
        >;
        expect(payload['alert']).toMatchObject({
          id: alert.id,
          segment_id: 'fr-alpe-d-huez',
          window_start: '2026-11-21T14:00:00Z',
          window_end: '2026-11-21T16:00:00Z',
          time_zone: 'Europe/Paris',
          window_start_local: '2026-11-21T15:00:00+01:00',
          window_text: 'Sat 21 Nov 15:00–17:00 CET',
        });
        expect(payload).toMatchObject({ title: `Tailwind on ${name}`, tag: `alert-${alert.id}` });
      }

      const again = await deliverChannels(deps);
      expect(again).toMatchObject({ added: 0, emailSent: 0, pushSent: 0 });
      expect(smtp.messages).toHaveLength(1);
      expect(push.received).toHaveLength(2);
    });

    it('sends no mail to an address that was never verified', async () => {
      const rider = await verifiedRider(store, false);
      await alpeAlert(store, rider);
      const summary = await deliverChannels(channelDeps(store, smtp.url, clock));
      expect(summary).toMatchObject({ added: 0, emailSent: 0 });
      expect(smtp.messages).toHaveLength(0);
    });

    it('shows markup in a segment name as text and lets no line break into a header', async () => {
      const rider = await verifiedRider(store);
      await alpeAlert(store, rider);
      const evil = '<img src=x onerror=alert(1)> Col\r\nBcc: victim@example.com';
      const alpe = catalog.get('fr-alpe-d-huez');
      if (!alpe) throw new Error('the catalog lost Alpe d’Huez');
      const named = { get: (id: string) => (id === alpe.id ? { ...alpe, name: evil } : catalog.get(id)) };
      await deliverChannels(channelDeps(store, smtp.url, clock, { catalog: named }));
      const caught = await smtp.waitForMail(() => true);
      expect(caught.to).toEqual([rider.email]);
      expect(caught.mail.bcc).toBeUndefined();
      expect(caught.mail.headers.has('bcc')).toBe(false);
      expect(caught.mail.subject).toBe(
        'Tailwind on <img src=x onerror=alert(1)> Col Bcc: victim@example.com: Sat 21 Nov 15:00–17:00 CET',
      );
      expect(caught.mail.html).not.toContain('<img');
      expect(caught.mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    });
  });

  describe('when the SMTP server misbehaves', () => {
    it('refuses: the reason is kept, the mail is retried after the back-off and arrives once', async () => {
      const rider = await verifiedRider(store);
      const alert = await alpeAlert(store, rider);
      const deps = channelDeps(store, smtp.url, clock);
      smtp.mode = 'refuse';
      expect(await deliverChannels(deps)).toMatchObject({ emailSent: 0, failed: 1 });
      const [failed] = await listDeliveries(store.db, rider.id, [alert.id]);
      expect(failed).toMatchObject({ channel: 'email', state: 'failed', attempts: 1 });
      expect(failed?.lastError).toMatch(/^the mail server refused the message \(550/);
      expect(failed?.nextAttemptAt).toBe(NOW_S + 300);

      smtp.mode = 'accept';
      expect(await deliverChannels(deps)).toMatchObject({ emailSent: 0, failed: 0 });
      expect(smtp.messages).toHaveLength(0);

      clock.now = NOW_S + 301;
      expect(await deliverChannels(deps)).toMatchObject({ emailSent: 1 });
      expect(await deliverChannels(deps)).toMatchObject({ emailSent: 0 });
      expect(smtp.messages).toHaveLength(1);
      const [done] = await listDeliveries(store.db, rider.id, [alert.id]);
      expect(done).toMatchObject({ state: 'delivered', attempts: 2, lastError: null });
    });

    it('stalls: the attempt ends at the time-out instead of hanging the job', async () => {
      const rider = await verifiedRider(store);
      const alert = await alpeAlert(store, rider);
      smtp.mode = 'stall';
      const started = performance.now();
      const summary = await deliverChannels(channelDeps(store, smtp.url, clock, { smtpTimeoutMs: 400 }));
      expect(performance.now() - started).toBeLessThan(5000);
      expect(summary).toMatchObject({ emailSent: 0, failed: 1 });
      const [failed] = await listDeliveries(store.db, rider.id, [alert.id]);
      expect(failed?.lastError).toBe('the mail server did not answer in time');

      smtp.mode = 'accept';
      clock.now = NOW_S + 301;
      await deliverChannels(channelDeps(store, smtp.url, clock));
      expect(smtp.messages).toHaveLength(1);
    });
  });

  describe('when the push service misbehaves', () => {
    it('410: the device is forgotten and never tried again', async () => {
      const rider = await verifiedRider(store, false);
      const alert = await alpeAlert(store, rider);
      await pushDevice(store, rider, push, 'old-phone');
      push.behaviour.set('/push/old-phone', 'gone');
      const summary = await deliverChannels(channelDeps(store, smtp.url, clock));
      expect(summary).toMatchObject({ pushSent: 0, devicesGone: 1, dropped: 1 });
      expect(await listPushDevices(store.db, rider.id)).toEqual([]);
      const [row] = await listDeliveries(store.db, rider.id, [alert.id]);
      expect(row).toMatchObject({
        state: 'dropped',
        lastError: 'not sent: the push service says this device is gone',
      });
      clock.now = NOW_S + 3600;
      await deliverChannels(channelDeps(store, smtp.url, clock));
      expect(push.received).toHaveLength(1);
    });

    it('hangs: the attempt times out, and the retry delivers it once', async () => {
      const rider = await verifiedRider(store, false);
      const alert = await alpeAlert(store, rider);
      const { keys } = await pushDevice(store, rider, push, 'slow');
      push.behaviour.set('/push/slow', 'hang');
      const summary = await deliverChannels(channelDeps(store, smtp.url, clock, { pushTimeoutMs: 300 }));
      expect(summary).toMatchObject({ pushSent: 0, failed: 1 });
      const [row] = await listDeliveries(store.db, rider.id, [alert.id]);
      expect(row?.lastError).toBe('the push service did not answer within 300 ms');

      push.behaviour.delete('/push/slow');
      clock.now = NOW_S + 301;
      expect(await deliverChannels(channelDeps(store, smtp.url, clock))).toMatchObject({ pushSent: 1 });
      expect(await deliverChannels(channelDeps(store, smtp.url, clock))).toMatchObject({ pushSent: 0 });
      expect(push.received).toHaveLength(1);
      expect(JSON.parse(decryptPush(push.received[0]?.body ?? Buffer.alloc(0), keys))).toMatchObject({
        alert: { id: alert.id },
      });
    });

    it('refuses an endpoint inside the network at send time and forgets the device', async () => {
      const rider = await verifiedRider(store, false);
      await alpeAlert(store, rider);
      await pushDevice(store, rider, push, 'phone');
      const deps = channelDeps(store, smtp.url, clock);
      // The production rule: a loopback endpoint is not a push service on the internet.
      const strictPush = { keys: deps.push.keys, contact: deps.push.contact };
      const strict = { ...deps, push: strictPush };
      const summary = await deliverChannels(strict);
      expect(summary).toMatchObject({ pushSent: 0, dropped: 1 });
      expect(push.received).toHaveLength(0);
      expect(await listPushDevices(store.db, rider.id)).toEqual([]);
    });
  });

  describe('one-click unsubscribe', () => {
    it('stops email only: the next window still reaches the devices', async () => {
      const rider = await verifiedRider(store);
      await alpeAlert(store, rider);
      await pushDevice(store, rider, push, 'phone');
      const deps = channelDeps(store, smtp.url, clock);
      await deliverChannels(deps);
      const caught = await smtp.waitForMail(() => true);
      const link = /<(https:\/\/wos\.test\/api\/rider\/unsubscribe\?token=[\w-]+)>/.exec(
        headersOf(caught),
      )?.[1];
      expect(link).toBeDefined();

      // What a mail app's Unsubscribe button sends (RFC 8058): a POST with this form body, no cookie.
      const answer = await unsubscribe(
        new Request(link ?? '', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        }),
        store.db,
      );
      expect(answer).toMatchObject({ status: 200, body: { email_alerts: false } });
      expect(await findRiderChannels(store.db, rider.id)).toMatchObject({
        emailAlerts: false,
        pushAlerts: true,
      });

      await alpeAlert(store, rider, 'fr-mont-ventoux-bedoin');
      const next = await deliverChannels(deps);
      expect(next).toMatchObject({ emailSent: 0, pushSent: 1 });
      expect(smtp.messages).toHaveLength(1);
      expect(push.received).toHaveLength(2);
    });

    it('changes nothing on a GET, which only leads to the page', async () => {
      const rider = await verifiedRider(store);
      await alpeAlert(store, rider);
      await deliverChannels(channelDeps(store, smtp.url, clock));
      const caught = await smtp.waitForMail(() => true);
      const link = /<(https:\/\/wos\.test\/api\/rider\/unsubscribe\?token=[\w-]+)>/.exec(
        headersOf(caught),
      )?.[1];
      const answer = await unsubscribe(new Request(link ?? ''), store.db);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(303);
      expect((answer as Response).headers.get('location')).toMatch(/^\/unsubscribe\?token=/);
      expect(await findRiderChannels(store.db, rider.id)).toMatchObject({ emailAlerts: true });
    });
  });
}
