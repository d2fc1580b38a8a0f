/**
 * Addresses built to smuggle a header or markup into a mail: sign-up refuses
 * them with a clear answer, a reset request for one answers like any other
 * request, and no mail leaves in either case.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type Mailer } from '../../src/data/mail/mailer.ts';
import { startAuthServer, type AuthServer } from '../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import { Agent } from '../auth/support/oauth.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../channels/smtp-catcher.ts';

let test: TestStore;
let smtp: SmtpCatcher;
let mailer: Mailer;
let server: AuthServer;

beforeAll(async () => {
  [test, smtp] = await Promise.all([sqliteTestStore(), startSmtpCatcher()]);
  mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'accounts@wos.test',
    outbox: mkdtempSync(join(tmpdir(), 'wos-')),
  });
  server = await startAuthServer({ store: test.store, mail: mailer });
});
afterAll(async () => {
  await server?.close();
  mailer?.close();
  await smtp?.close();
  await test?.dispose();
});

const HOSTILE = [
  'rider@example.org\r\nBcc: victim@example.org',
  'rider@example.org\nSubject: free money',
  '<img src=x onerror=alert(1)>@example.org',
  '"<b>rider</b>"@example.org',
  'rider@example.org, victim@example.org',
];

describe('hostile addresses', () => {
  it.each(HOSTILE)('sign-up refuses %j and mails nothing', async (email) => {
    const response = await new Agent(server.origin).postJson('/api/auth/sign-up/email', {
      email,
      password: 'a long enough passphrase',
      name: '<script>alert(1)</script>\r\nBcc: x@y.z',
    });
    expect(response.status).toBe(400);
    // The sign-up page shows `message` as it is.
    expect(await response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/email/i),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.messages.filter((m) => m.raw.includes('victim') || m.raw.includes('onerror'))).toEqual([]);
  });

  it('answers a reset request for one as for any address, and mails nothing', async () => {
    const ask = (email: string) =>
      new Agent(server.origin).postJson('/api/auth/request-password-reset', {
        email,
        redirectTo: '/reset-password',
      });
    const plain = await ask('nobody@example.org');
    for (const email of HOSTILE) {
      const answer = await ask(email);
      expect([200, 400]).toContain(answer.status);
      if (answer.status === 200) expect(await answer.json()).toEqual(await plain.clone().json());
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.filter((m) => m.to.some((to) => to !== 'named.rider@example.org'))).toEqual([]);
  });

  it('keeps markup in a display name out of every mail', async () => {
    const email = 'named.rider@example.org';
    const response = await new Agent(server.origin).postJson('/api/auth/sign-up/email', {
      email,
      password: 'a long enough passphrase',
      name: '<script>alert(1)</script>\r\nBcc: x@y.z',
    });
    expect(response.status).toBe(200);
    const mail = await smtp.waitForMail((m) => m.to.includes(email));
    expect(mail.to).toEqual([email]);
    expect(mail.mail.html).not.toContain('<script>');
    expect(mail.mail.headers.has('bcc')).toBe(false);
  });
});
