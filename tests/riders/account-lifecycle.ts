/**
 * A rider account from sign-up to deletion on one store engine, through the
 * real sign-in service, settings API, Stripe test double and rider MCP
 * address, with the mails read from a real SMTP server: the verification
 * link, password reset (single use, short-lived, the same answer for unknown
 * addresses), a password change that disconnects assistants, the export,
 * and the deletion that cancels the subscription and leaves no row of the
 * rider in any table. Run on SQLite (`sqlite.test.ts`) and PostgreSQL
 * (`tests/integration/riders/postgres.test.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../src/data/mail/mailer.ts';
import { withAuthTables } from '../../src/store/auth-tables.ts';
import { recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { savePushDevice } from '../../src/store/repositories/push-subscriptions.ts';
import type { TestStore } from '../auth/support/stores.ts';
import { metadataOf, signedUp } from '../auth/support/grants.ts';
import { Agent, postForm } from '../auth/support/oauth.ts';
import { startBillingWorld, type BillingWorld } from '../billing/support.ts';
import { climbGpx } from '../mcp/own-segment-fixtures.ts';
import { linkIn, startSmtpCatcher, type CaughtMail, type SmtpCatcher } from '../channels/smtp-catcher.ts';
import { newBrowserKeys } from '../channels/push-service.ts';

const PASSWORD = 'a long first passphrase';
const NEW_PASSWORD = 'a longer second passphrase';

/** Every row of every table, as text, that mentions any of `needles` (table name first). */
export async function rowsMentioning(test: TestStore, needles: readonly string[]): Promise<string[]> {
  const { db } = test.store;
  const tables = await db.introspection.getTables();
  const found: string[] = [];
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db);
    for (const row of rows.rows) {
      const text = JSON.stringify(row);
      if (needles.some((needle) => text.includes(needle))) found.push(`${table.name}: ${text.slice(0, 200)}`);
    }
  }
  return found;
}

export function describeAccountLifecycle(engine: string, makeStore: () => Promise<TestStore>): void {
  describe(`a rider account from sign-up to deletion (${engine})`, () => {
    let test: TestStore;
    let smtp: SmtpCatcher;
    let mailer: Mailer;
    let world: BillingWorld;
    const origin = () => world.server.origin;

    beforeAll(async () => {
      [test, smtp] = await Promise.all([makeStore(), startSmtpCatcher()]);
      mailer = createMailer({
        smtpUrl: smtp.url,
        from: 'wind-on-segment <accounts@wos.test>',
        outbox: mkdtempSync(join(tmpdir(), 'wos-outbox-')),
        timeoutMs: 3000,
      });
      world = await startBillingWorld(test.store, { mail: mailer });
    }, 60_000);
    afterAll(async () => {
      await world?.close();
      mailer?.close();
      await smtp?.close();
      await test?.dispose();
    });

    it('mails a verification link at sign-up; following it verifies the address, a forged one does not', async () => {
      const email = `verify-${randomUUID()}@example.org`;
      const agent = await signedUp(origin(), { email, password: PASSWORD });
      const me = async () =>
        (await (await agent.fetch('/api/rider/me')).json()) as { channels: { email: { verified: boolean } } };
      expect((await me()).channels.email.verified).toBe(false);
      const mail = await smtp.waitForMail((m) => m.to.includes(email));
      expect(mail.mail.subject).toBe('Confirm your email address for wind-on-segment');
      expect(mail.mail.html).toContain('Confirm this address');
      const link = linkIn(mail, `${origin()}/api/auth/verify-email?token=`);

      const forged = await agent.fetch(`${origin()}/api/auth/verify-email?token=forged.jwt.token`);
      expect(forged.status).toBeGreaterThanOrEqual(300);
      expect((await me()).channels.email.verified).toBe(false);

      const followed = await agent.fetch(link);
      expect([200, 302]).toContain(followed.status);
      expect((await me()).channels.email.verified).toBe(true);
    });

    it('resets a forgotten password once: the same answer for unknown addresses, old password and sessions gone', async () => {
      const email = `reset-${randomUUID()}@example.org`;
      const rider = { email, password: PASSWORD };
      const first = await signedUp(origin(), rider);
      const second = new Agent(origin());
      expect((await second.postJson('/api/auth/sign-in/email', rider)).status).toBe(200);
      expect((await second.fetch('/api/rider/me')).status).toBe(200);
      const ask = (address: string) =>
        new Agent(origin()).postJson('/api/auth/request-password-reset', {
          email: address,
          redirectTo: '/reset-password',
        });
      const known = await ask(email);
      const unknown = await ask(`nobody-${randomUUID()}@example.org`);
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(known.status);
      expect(await unknown.json()).toEqual(await known.json());

      const isReset = (m: CaughtMail) =>
        m.to.includes(email) && m.mail.subject === 'Reset your wind-on-segment password';
      await smtp.waitForMail(isReset);
      const resets = smtp.messages.filter(isReset);
      const mail = () => {
        throw new Error('no reset mail');
      };
      expect(resets).toHaveLength(1);
      expect(smtp.messages.filter((m) => m.to.some((to) => to.startsWith('nobody-')))).toHaveLength(0);
      expect(resets[0]?.mail.text).toContain('works once, for 30 minutes');

      const landing = await new Agent(origin()).fetch(
        linkIn(resets[0] ?? mail(), `${origin()}/api/auth/reset-password/`),
      );
      expect(landing.status).toBe(302);
      const target = new URL(landing.headers.get('location') ?? '', origin());
      expect(target.pathname).toBe('/reset-password');
      const token = target.searchParams.get('token') ?? '';
      expect(token.length).toBeGreaterThan(10);

      const reset = (body: object) => new Agent(origin()).postJson('/api/auth/reset-password', body);
      expect((await reset({ newPassword: NEW_PASSWORD, token: 'forged-token' })).status).toBe(400);
      expect((await reset({ newPassword: NEW_PASSWORD, token })).status).toBe(200);
      const reused = await reset({ newPassword: 'a third passphrase here', token });
      expect(reused.status).toBe(400);
      expect(await reused.json()).toMatchObject({ code: 'INVALID_TOKEN' });

      const signIn = (password: string) =>
        new Agent(origin()).postJson('/api/auth/sign-in/email', { email, password });
      expect((await signIn(PASSWORD)).status).toBe(401);
      expect((await signIn(NEW_PASSWORD)).status).toBe(200);
      expect((await first.fetch('/api/rider/me')).status).toBe(401);
      expect((await second.fetch('/api/rider/me')).status).toBe(401);
    });

    it('refuses an expired reset link', async () => {
      const email = `expired-${randomUUID()}@example.org`;
      await signedUp(origin(), { email, password: PASSWORD });
      await new Agent(origin()).postJson('/api/auth/request-password-reset', {
        email,
        redirectTo: '/reset-password',
      });
      const mail = await smtp.waitForMail(
        (m) => m.to.includes(email) && m.mail.subject === 'Reset your wind-on-segment password',
      );
      const token =
        /reset-password\/([^?\s]+)/.exec(linkIn(mail, `${origin()}/api/auth/reset-password/`))?.[1] ?? '';
      await withAuthTables(test.store.db)
        .updateTable('verification')
        .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
        .where('identifier', '=', `reset-password:${token}`)
        .execute();
      const response = await new Agent(origin()).postJson('/api/auth/reset-password', {
        newPassword: NEW_PASSWORD,
        token,
      });
      expect(response.status).toBe(400);
      expect(
        (await new Agent(origin()).postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status,
      ).toBe(200);
    });

    it('disconnects the assistants on a reset only when the rider ticks the box', async () => {
      const email = `reset-assistants-${randomUUID()}@example.org`;
      const { mcp } = await world.freeRider({ email, password: PASSWORD });
      const resetWith = async (newPassword: string, disconnectAssistants: boolean) => {
        const before = smtp.messages.length;
        await new Agent(origin()).postJson('/api/auth/request-password-reset', {
          email,
          redirectTo: '/reset-password',
        });
        const mail = await smtp.waitForMail(
          (m) =>
            smtp.messages.indexOf(m) >= before &&
            m.to.includes(email) &&
            m.mail.subject === 'Reset your wind-on-segment password',
        );
        const token =
          /reset-password\/([^?\s]+)/.exec(linkIn(mail, `${origin()}/api/auth/reset-password/`))?.[1] ?? '';
        const answer = await new Agent(origin()).postJson('/api/auth/reset-password', {
          newPassword,
          token,
          disconnectAssistants,
        });
        expect(answer.status).toBe(200);
      };
      await resetWith(NEW_PASSWORD, false);
      expect((await mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).isError).toBeFalsy();
      await resetWith(PASSWORD, true);
      await expect(mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).rejects.toThrow();
    });

    it('ends the assistants’ access when a password change asks to sign out everywhere', async () => {
      const email = `change-${randomUUID()}@example.org`;
      const { agent, mcp, tokens } = await world.freeRider({ email, password: PASSWORD });
      expect((await mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).isError).toBeFalsy();
      const kept = await agent.postJson('/api/auth/change-password', {
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        revokeOtherSessions: false,
      });
      expect(kept.status).toBe(200);
      expect((await mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).isError).toBeFalsy();
      const laptop = new Agent(origin());
      expect(
        (await laptop.postJson('/api/auth/sign-in/email', { email, password: NEW_PASSWORD })).status,
      ).toBe(200);

      const changed = await agent.postJson('/api/auth/change-password', {
        currentPassword: NEW_PASSWORD,
        newPassword: PASSWORD,
        revokeOtherSessions: true,
      });
      expect(changed.status).toBe(200);
      expect((await laptop.fetch('/api/rider/me')).status).toBe(401);
      expect((await agent.fetch('/api/rider/me')).status).toBe(200);
      await expect(mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).rejects.toThrow();
      const metadata = await metadataOf(origin());
      const refreshed = await postForm(metadata.token_endpoint, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id:
          ((await (await agent.fetch('/api/rider/me')).json()) as { connections: { client_id: string }[] })
            .connections[0]?.client_id ?? 'none',
      });
      expect(refreshed.status).toBe(400);
    });

    it('exports and then deletes everything, cancelling the subscription first', async () => {
      const email = `leaving-${randomUUID()}@example.org`;
      const { agent, id, mcp } = await world.freeRider({ email, password: PASSWORD });
      // Pro Monthly through the Stripe double's Checkout.
      const checkout = await agent.postJson('/api/rider/billing/checkout', {
        plan: 'pro_monthly',
        currency: 'eur',
      });
      const checkoutUrl = String(((await checkout.json()) as { url: string }).url);
      expect([302, 303]).toContain(
        (await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' })).status,
      );
      const subscription =
        [...world.double.subscriptions.values()].find(
          (s) => s['metadata'] && (s['metadata'] as Record<string, unknown>)['rider_id'] === id,
        ) ?? [...world.double.subscriptions.values()].at(-1);
      expect(subscription?.status).toBe('active');

      expect((await agent.postJson('/api/rider/watchlist', { segment_id: 'fr-alpe-d-huez' })).status).toBe(
        201,
      );
      const own = await agent.postJson('/api/rider/segments', {
        name: 'My <b>hill</b>',
        format: 'gpx',
        text: climbGpx(),
      });
      expect(own.status, await own.clone().text()).toBe(201);
      const alert = await recordAlertOnce(test.store.db, id, {
        segmentId: 'fr-alpe-d-huez',
        windowStart: Math.floor(Date.now() / 1000) + 3600,
        windowEnd: Math.floor(Date.now() / 1000) + 7200,
        peakTailwindKmh: 15,
      });
      const keys = newBrowserKeys();
      await savePushDevice(
        test.store.db,
        id,
        { endpoint: `https://push.example/${id}`, p256dh: keys.p256dh, auth: keys.auth, label: 'Phone' },
        0,
      );
      expect((await agent.postJson('/api/rider/calendar', { action: 'renew' })).status).toBe(200);
      expect((await agent.postJson('/api/rider/channels', { email: false })).status).toBe(200);

      const exported = await agent.fetch('/api/rider/export');
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toMatch(
        /^attachment; filename="wind-on-segment-data-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const data = (await exported.json()) as {
        plan: string;
        paid_plan: { planId: string };
        email: string;
        tables: Record<string, Record<string, unknown>[]>;
      };
      expect(data.email).toBe(email);
      expect(data.plan).toBe('pro');
      expect(data.paid_plan.planId).toBe('pro_monthly');
      expect(data.tables['watch']?.map((w) => w['segment_id'])).toContain('fr-alpe-d-huez');
      expect(data.tables['rider_segment']?.map((s) => s['name'])).toEqual(['My <b>hill</b>']);
      expect(data.tables['alert']?.map((a) => a['id'])).toEqual([alert?.id]);
      expect(data.tables['push_subscription']?.[0]).toMatchObject({ label: 'Phone' });
      expect(data.tables['oauthConsent']).toHaveLength(1);
      const text = JSON.stringify(data);
      for (const key of ['"password"', 'webhook_secret', 'p256dh', 'calendar_token_hash', '"token"'])
        expect(text).not.toContain(key);

      const wrong = await agent.postJson('/api/auth/delete-user', { password: 'not the password at all' });
      expect(wrong.status).toBe(400);
      expect((await agent.fetch('/api/rider/me')).status).toBe(200);

      const deleted = await agent.postJson('/api/auth/delete-user', { password: PASSWORD });
      expect(deleted.status, await deleted.clone().text()).toBe(200);
      expect(await deleted.json()).toMatchObject({ success: true, message: 'User deleted' });

      expect(subscription?.status).toBe('canceled');
      expect(await rowsMentioning(test, [id, email])).toEqual([]);
      expect((await agent.fetch('/api/rider/me')).status).toBe(401);
      await expect(mcp.callTool({ name: 'get_my_watchlist', arguments: {} })).rejects.toThrow();
      expect(
        (await new Agent(origin()).postJson('/api/auth/sign-in/email', { email, password: PASSWORD })).status,
      ).toBe(401);
    });
  });
}
