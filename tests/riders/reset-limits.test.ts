/**
 * The limits on asking for account mails: a client address gets 3 reset
 * requests a minute (better-auth's rule for the path, counted in our
 * windows), and one address gets at most 3 reset or confirmation mails an
 * hour however many clients ask, while every request still gets the same
 * answer, so the limit says nothing about whether the address has an account.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMailer, type Mailer } from '../../src/data/mail/mailer.ts';
import { startAuthServer, type AuthServer } from '../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import { Agent } from '../auth/support/oauth.ts';
import { signedUp } from '../auth/support/grants.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../channels/smtp-catcher.ts';

let test: TestStore;
let smtp: SmtpCatcher;
let mailer: Mailer;
let limited: AuthServer;
let open: AuthServer;

beforeAll(async () => {
  [test, smtp] = await Promise.all([sqliteTestStore(), startSmtpCatcher()]);
  mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'accounts@wos.test',
    outbox: mkdtempSync(join(tmpdir(), 'wos-')),
  });
  [limited, open] = await Promise.all([
    startAuthServer({ store: test.store, mail: mailer, rateLimit: true }),
    startAuthServer({ store: test.store, mail: mailer }),
  ]);
});
afterAll(async () => {
  await Promise.all([limited?.close(), open?.close()]);
  mailer?.close();
  await smtp?.close();
  await test?.dispose();
});

/** A reset request from this test's client address (127.0.0.1), with no cookie. */
const ask = (server: AuthServer, email: string) =>
  new Agent(server.origin).postJson('/api/auth/request-password-reset', {
    email,
    redirectTo: '/reset-password',
  });

describe('asking for reset links', () => {
  it('allows a client address 3 requests a minute, known address or not', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await ask(limited, `nobody-${i}@example.org`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('sends one address at most 3 account mails an hour, answering every request alike', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const email = `popular-${randomUUID()}@example.org`;
    await signedUp(open.origin, { email, password: 'a long enough passphrase' });
    await smtp.waitForMail((m) => m.to.includes(email));
    const answers: string[] = [];
    for (let i = 0; i < 4; i += 1) answers.push(await (await ask(open, email)).text());
    expect(new Set(answers).size).toBe(1);
    // The mails go out after the answers: wait until every request's mail was sent or refused.
    // The confirmation mail of sign-up counts too: 1 + 2 resets, then 2 refusals and nothing more.
    const refusals = () =>
      warn.mock.calls.filter(([line]) =>
        /^sign-in: password reset mail not sent: this address had 3/.test(String(line)),
      ).length;
    const mails = () => smtp.messages.filter((m) => m.to.includes(email)).length;
    await vi.waitFor(() => expect([mails(), refusals()]).toEqual([3, 2]), { timeout: 10_000 });
    warn.mockRestore();
  });
});
