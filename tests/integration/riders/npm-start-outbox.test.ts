/**
 * `npm start` with no mail server: the confirmation mail of a sign-up lands
 * in the outbox folder as a whole MIME message, with a log line that says it
 * was not sent, and the link in it confirms the address on the running
 * server. What a developer does on a fresh clone.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../auth/support/oauth.ts';
import { startService, type RunningService } from '../../support/service.ts';

const folder = mkdtempSync(join(tmpdir(), 'wos-outbox-start-'));
const outbox = join(folder, 'outbox');
let service: RunningService;

beforeAll(async () => {
  service = await startService({
    WOS_DATABASE_PATH: join(folder, 'store.sqlite'),
    WOS_ALERTS_INTERVAL_MS: '0',
    WOS_MAIL_OUTBOX: outbox,
  });
}, 240_000);
afterAll(async () => {
  await service?.stop();
});

describe('mail from npm start without WOS_SMTP_URL', () => {
  it('keeps the confirmation in the outbox, says so, and its link confirms the address', async () => {
    const email = 'outbox.rider@example.org';
    const agent = new Agent(service.baseUrl);
    const signUp = await agent.postJson('/api/auth/sign-up/email', {
      email,
      password: 'a long enough passphrase',
      name: email,
      callbackURL: '/settings?verified=1',
    });
    expect(signUp.status).toBe(200);
    await expect.poll(() => readdirSync(outbox, { recursive: false }).length, { timeout: 10_000 }).toBe(1);
    const [file] = readdirSync(outbox);
    const mail = await simpleParser(readFileSync(join(outbox, String(file))));
    expect(mail.subject).toBe('Confirm your email address for wind-on-segment');
    expect(mail.from?.value).toEqual([{ name: 'wind-on-segment', address: 'alerts@localhost' }]);
    await expect
      .poll(() => service.output(), { timeout: 5_000 })
      .toMatch(
        /mail: NOT SENT \(no WOS_SMTP_URL\), kept in the outbox: .+\.eml \(to outbox\.rider@example\.org: Confirm/,
      );

    const link = (mail.text ?? '')
      .split(/\s+/)
      .find((word) => word.includes('/api/auth/verify-email?token='));
    expect(link?.startsWith(service.baseUrl)).toBe(true);
    const followed = await agent.fetch(link ?? '');
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('/settings?verified=1');
    const me = (await (await agent.fetch('/api/rider/me')).json()) as { channels: { email: unknown } };
    expect(me.channels.email).toEqual({ on: true, verified: true, delivery: 'outbox' });
  });
});
