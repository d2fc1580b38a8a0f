/**
 * A rider's account in Chromium, end to end, against the sign-in service,
 * the settings API, the Stripe test double, a real SMTP server and a Web
 * Push service double: sign up and confirm the address from the mailed
 * link; forget the password and reset it (the new one works, the old fails,
 * other sessions end, the link works once); an alert goes out by email (local
 * time, unsubscribe link and header) and push (decrypted to the same window)
 * and is in the calendar feed; one click in the mail stops email only; the
 * export holds the watchlist, own segments, alerts and plan; deleting the
 * account cancels the subscription, leaves no row of the rider and locks the
 * assistant out.
 *
 * Two steps are not done in the page, as no offline browser can do them: the
 * push subscription (Chromium's push service is Google's) is saved with the
 * test's own keys and the double's endpoint, as the settings page would save
 * the browser's; and the alert is recorded as the job's evaluation records it
 * (tests/alerts cover the evaluation), before the real delivery run.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverChannels } from '../../../src/alerts/channel-delivery.ts';
import { createMailer, type Mailer } from '../../../src/data/mail/mailer.ts';
import { vapidKeys } from '../../../src/rider/push-keys.ts';
import { recordAlertOnce } from '../../../src/store/repositories/alerts.ts';
import { savePushDevice } from '../../../src/store/repositories/push-subscriptions.ts';
import { catalog } from '../../alerts/helpers.ts';
import { startPageHost, type PageHost } from '../../auth/support/pages.ts';
import { sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';
import { metadataOf, registerClient, tokensFor } from '../../auth/support/grants.ts';
import { Agent } from '../../auth/support/oauth.ts';
import { startBillingWorld, type BillingWorld } from '../../billing/support.ts';
import { climbGpx } from '../../mcp/own-segment-fixtures.ts';
import { launchBrowser, newPage } from '../../support/browser/launch.ts';
import { acceptLoopback } from '../../support/loopback-webhooks.ts';
import {
  decryptPush,
  newBrowserKeys,
  startPushService,
  type PushServiceDouble,
} from '../../channels/push-service.ts';
import { headersOf, linkIn, startSmtpCatcher, type SmtpCatcher } from '../../channels/smtp-catcher.ts';
import { rowsMentioning } from '../../riders/account-lifecycle.ts';
import { startCallbackServer, type CallbackServer } from '../../auth/support/server.ts';
import { StreamableHTTPClientTransport, Client as McpClient } from '@modelcontextprotocol/client';

let test: TestStore;
let pages: PageHost;
let browser: Browser;
let smtp: SmtpCatcher;
let push: PushServiceDouble;
let mailer: Mailer;
let world: BillingWorld;
let callback: CallbackServer;

beforeAll(async () => {
  [test, pages, browser, smtp, push, callback] = await Promise.all([
    sqliteTestStore(),
    startPageHost(),
    launchBrowser(),
    startSmtpCatcher(),
    startPushService(),
    startCallbackServer(),
  ]);
  mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'wind-on-segment <accounts@wos.test>',
    outbox: mkdtempSync(join(tmpdir(), 'wos-outbox-')),
    timeoutMs: 3000,
  });
  world = await startBillingWorld(test.store, { pages: pages.handle, mail: mailer });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([world?.close(), pages?.stop(), smtp?.close(), push?.close(), callback?.close()]);
  mailer?.close();
  await test?.dispose();
});

const PASSWORD = 'first browser passphrase';
const NEW_PASSWORD = 'second browser passphrase';

describe('a rider account in the browser', () => {
  it('signs up, confirms, resets, gets an alert everywhere, unsubscribes, exports and leaves', async () => {
    const origin = world.server.origin;
    const email = `browser-${randomUUID().slice(0, 8)}@example.org`;
    const { page, problems, close } = await newPage(browser, {
      // The page asks for the session before anyone is signed in, and a deleted account's session is gone.
      allow: [/favicon\.ico/, /401 \(Unauthorized\)/],
    });
    const deliveryDeps = () => ({
      store: test.store,
      now: Date.now,
      catalog,
      mailer,
      origin,
      push: {
        keys: () => vapidKeys(test.store.db, Math.floor(Date.now() / 1000)),
        contact: 'mailto:ops@wos.test',
        checkTarget: acceptLoopback,
      },
    });
    try {
      // Sign up; the settings page says the address is not confirmed.
      await page.goto(`${origin}/signup`);
      await page.fill('#email', email);
      await page.fill('#password', PASSWORD);
      await page.click('#account-submit');
      await page.waitForURL(/\/settings/);
      await page.locator('#email-unverified').waitFor({ state: 'visible' });

      // The link in the mail confirms it.
      const confirm = await smtp.waitForMail((m) => m.to.includes(email));
      await page.goto(linkIn(confirm, `${origin}/api/auth/verify-email?token=`));
      await page.waitForURL(/\/settings\?verified=1/);
      await page.locator('#email-verified').waitFor({ state: 'visible' });
      expect(await page.textContent('#channels-status')).toBe('Your email address is confirmed.');

      // Another session (an API client standing in for a second browser), an assistant, Pro Monthly, a watch and an own segment.
      const other = new Agent(origin);
      expect((await other.postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(
        200,
      );
      const metadata = await metadataOf(origin);
      const clientId = await registerClient(metadata, callback.redirectUri, 'browser test assistant');
      const tokens = await tokensFor(
        other,
        metadata,
        { email, password: PASSWORD },
        { clientId, redirectUri: callback.redirectUri },
      );
      const mcp = new McpClient({ name: 'account-browser', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${origin}/mcp/rider`), {
          requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
        }),
      );
      const checkout = await other.postJson('/api/rider/billing/checkout', {
        plan: 'pro_monthly',
        currency: 'eur',
      });
      const checkoutUrl = String(((await checkout.json()) as { url: string }).url);
      await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
      expect((await other.postJson('/api/rider/watchlist', { segment_id: 'fr-alpe-d-huez' })).status).toBe(
        201,
      );
      expect(
        (await other.postJson('/api/rider/segments', { name: 'Home hill', format: 'gpx', text: climbGpx() }))
          .status,
      ).toBe(201);

      // Forgot password: the reset link, the new password; the old fails, the other session ends.
      await page.goto(`${origin}/forgot-password`);
      await page.fill('#forgot-email', email);
      await page.click('#forgot-submit');
      await expect.poll(() => page.textContent('#forgot-status')).toContain('is on its way');
      const resetMail = await smtp.waitForMail(
        (m) => m.to.includes(email) && m.mail.subject === 'Reset your wind-on-segment password',
      );
      const resetLink = linkIn(resetMail, `${origin}/api/auth/reset-password/`);
      await page.goto(resetLink);
      await page.waitForURL(/\/reset-password\?token=/);
      await page.fill('#reset-password', NEW_PASSWORD);
      await page.click('#reset-submit');
      await expect.poll(() => page.textContent('#reset-status')).toContain('Your password is changed');
      const signIn = (password: string) =>
        new Agent(origin).postJson('/api/auth/sign-in/email', { email, password });
      expect((await signIn(PASSWORD)).status).toBe(401);
      expect((await signIn(NEW_PASSWORD)).status).toBe(200);
      expect((await other.fetch('/api/rider/me')).status).toBe(401);
      await page.goto(resetLink);
      await page.waitForURL(/error=INVALID_TOKEN/);
      await page.locator('#reset-invalid').waitFor({ state: 'visible' });
      // The assistant was not asked to go: it still answers.
      expect((await mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).isError).toBeFalsy();

      // Sign in again in the browser.
      await page.goto(`${origin}/login`);
      await page.fill('#email', email);
      await page.fill('#password', NEW_PASSWORD);
      await page.click('#account-submit');
      await page.waitForURL(/\/settings/);
      await page.locator('#settings-signed-in').waitFor({ state: 'visible' });
      const riderId = String(
        ((await (await page.request.get(`${origin}/api/rider/me`)).json()) as { rider: { id: string } }).rider
          .id,
      );

      // This phone gets push (saved as the page would save the browser's subscription), then an alert fires.
      const keys = newBrowserKeys();
      await savePushDevice(
        test.store.db,
        riderId,
        {
          endpoint: push.endpoint('phone'),
          p256dh: keys.p256dh,
          auth: keys.auth,
          label: 'Chrome on Android',
        },
        Math.floor(Date.now() / 1000),
      );
      const startS = Math.ceil(Date.now() / 3_600_000) * 3600 + 3600;
      const alert = await recordAlertOnce(test.store.db, riderId, {
        segmentId: 'fr-alpe-d-huez',
        windowStart: startS,
        windowEnd: startS + 2 * 3600,
        peakTailwindKmh: 21.3,
      });
      expect(await deliverChannels(deliveryDeps())).toMatchObject({ emailSent: 1, pushSent: 1 });
      const alertMail = await smtp.waitForMail(
        (m) => m.to.includes(email) && (m.mail.subject ?? '').startsWith('Tailwind on'),
      );
      const windowText = /: (\w{3} \d{1,2} \w+ \d\d:\d\d–\d\d:\d\d \S+)$/.exec(
        alertMail.mail.subject ?? '',
      )?.[1];
      expect(windowText).toMatch(/ (CET|CEST)$/);
      expect(headersOf(alertMail)).toMatch(
        /^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/rider\/unsubscribe\?token=[\w-]+>\r$/m,
      );
      expect(headersOf(alertMail)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      const pushed = JSON.parse(decryptPush(push.received[0]?.body ?? Buffer.alloc(0), keys)) as {
        alert: Record<string, unknown>;
      };
      expect(pushed.alert).toMatchObject({
        id: alert?.id,
        window_text: windowText,
        time_zone: 'Europe/Paris',
      });

      // The settings page shows how it went out; the calendar feed holds it.
      await page.reload();
      await expect.poll(() => page.textContent('#alerts')).toContain('email: delivered');
      expect(await page.textContent('#alerts')).toContain('push to Chrome on Android: delivered');
      await page.click('#calendar-renew');
      await page.locator('#calendar-url-box').waitFor({ state: 'visible' });
      const feedUrl = (await page.textContent('#calendar-url')) ?? '';
      const feed = new ICAL.Component(ICAL.parse(await (await fetch(feedUrl)).text()));
      const event = feed
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v))
        .find((e) => e.uid.startsWith(`alert-${alert?.id}@`));
      expect(event?.startDate.toUnixTime()).toBe(startS);
      // In the segment's own zone (this test server's catalog places its segment elsewhere than Paris).
      const tzid = event?.component.getFirstProperty('dtstart')?.getParameter('tzid');
      expect(tzid).toMatch(/^[A-Z][a-z]+\/[A-Za-z_]+$/);
      expect(event?.startDate.zone.tzid).toBe(tzid);

      // One click on the mail's unsubscribe link stops email only.
      await page.goto(linkIn(alertMail, `${origin}/unsubscribe?token=`));
      await page.click('#unsubscribe-submit');
      await expect.poll(() => page.textContent('#unsubscribe-status')).toContain('no more alert emails');
      const mailsBefore = smtp.messages.length;
      await recordAlertOnce(test.store.db, riderId, {
        segmentId: 'fr-mont-ventoux-bedoin',
        windowStart: startS + 3600,
        windowEnd: startS + 3 * 3600,
        peakTailwindKmh: 17,
      });
      expect(await deliverChannels(deliveryDeps())).toMatchObject({ emailSent: 0, pushSent: 1 });
      expect(smtp.messages).toHaveLength(mailsBefore);
      await page.goto(`${origin}/settings`);
      await page.locator('#settings-signed-in').waitFor({ state: 'visible' });
      expect(await page.locator('#email-alerts').isChecked()).toBe(false);
      expect(await page.locator('#push-alerts').isChecked()).toBe(true);

      // The export holds the watchlist, own segments, alerts and plan.
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-link')]);
      // Saved by name: the shared Chromium is a remote browser, whose downloads have no local path.
      const saved = join(mkdtempSync(join(tmpdir(), 'wos-export-')), download.suggestedFilename());
      await download.saveAs(saved);
      const exported = JSON.parse(readFileSync(saved, 'utf8')) as {
        plan: string;
        paid_plan: { planId: string } | null;
        tables: Record<string, Record<string, unknown>[]>;
      };
      expect(exported.plan).toBe('pro');
      expect(exported.paid_plan?.planId).toBe('pro_monthly');
      expect(exported.tables['watch']?.map((w) => w['segment_id'])).toEqual(
        expect.arrayContaining(['fr-alpe-d-huez']),
      );
      expect(exported.tables['rider_segment']?.map((s) => s['name'])).toEqual(['Home hill']);
      expect(exported.tables['alert']).toHaveLength(2);

      // Delete: the subscription is cancelled, nothing of the rider is left, the assistant is refused.
      const subscription = [...world.double.subscriptions.values()].at(-1);
      expect(subscription?.status).toBe('active');
      await page.fill('#delete-password', NEW_PASSWORD);
      await page.click('#delete-submit');
      await page.waitForURL(/\/\?account=deleted/);
      expect(subscription?.status).toBe('canceled');
      expect(await rowsMentioning(test, [riderId, email])).toEqual([]);
      await expect(mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).rejects.toThrow();
      await mcp.close().catch(() => undefined);
      expect(problems()).toEqual([]);
    } finally {
      await close();
    }
  }, 180_000);
});
