/**
 * The mailer's last checks and its offline default: an address that could
 * smuggle a header or a recipient never reaches a transport, a subject loses
 * its line breaks, and without an SMTP server a message lands in the outbox
 * folder as a readable .eml with a log line that says it was not sent.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerText, isSendableAddress } from '../../src/data/mail/mail-address.ts';
import { createMailer, MailError } from '../../src/data/mail/mailer.ts';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.ts';

let smtp: SmtpCatcher;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
});
afterAll(async () => {
  await smtp.close();
});

const message = (to: string) => ({ to, subject: 'Hello', text: 'Plain words.', html: '<p>Plain words.</p>' });

describe('addresses', () => {
  it('takes ordinary addresses', () => {
    for (const address of ['rider@example.org', 'a.b+alerts@sub.example.co.uk', "o'neil@example.ie"]) {
      expect(isSendableAddress(address)).toBe(true);
    }
  });

  it('refuses any address holding a line break, a space, an angle bracket, a quote or a comma', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('\r', '\n', '\r\n', ' ', '<', '>', '"', ',', '\t', '\0'),
        fc.string(),
        (a, bad, b) => {
          expect(isSendableAddress(`rider${a}${bad}${b}@example.org`)).toBe(false);
          expect(isSendableAddress(`rider@example.org${bad}${b}`)).toBe(false);
        },
      ),
    );
  });

  it('sends nothing to an address with CRLF or HTML in it, and says why', async () => {
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'alerts@wos.test',
      outbox: tmpdir(),
      timeoutMs: 2000,
    });
    for (const to of [
      'rider@example.org\r\nBcc: victim@example.org',
      '<b>rider</b>@example.org',
      'a@b.c, victim@x.y',
    ]) {
      const sent = mailer.send(message(to));
      await expect(sent).rejects.toBeInstanceOf(MailError);
      await expect(sent).rejects.toThrow('not sent: the address is not one mail can go to');
    }
    // A good message after them, accepted once the catcher holds it, is the only one there.
    await mailer.send(message('rider@example.org'));
    expect(smtp.messages.map((m) => m.to)).toEqual([['rider@example.org']]);
    mailer.close();
  });

  it('folds every control character in a subject into a space', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        // eslint-disable-next-line no-control-regex
        expect(headerText(text)).not.toMatch(/[\u0000-\u001f\u007f\u2028\u2029]/);
      }),
    );
  });
});

describe('the outbox, when no SMTP server is set', () => {
  it('keeps the whole MIME message in a file and logs a line that says it was not sent', async () => {
    const outbox = join(mkdtempSync(join(tmpdir(), 'wos-outbox-')), 'outbox');
    const lines: string[] = [];
    const mailer = createMailer({
      from: 'wind-on-segment <alerts@wos.test>',
      outbox,
      log: (line) => lines.push(line),
    });
    expect(mailer.kind).toBe('outbox');
    const sent = await mailer.send({
      ...message('rider@example.org'),
      unsubscribeUrl: 'https://wos.test/u?token=t',
    });
    expect(sent.file).toBeDefined();
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-.+\.eml$/);
    const parsed = await simpleParser(readFileSync(join(outbox, files[0] ?? '')));
    expect(parsed.subject).toBe('Hello');
    expect(parsed.text?.trim()).toBe('Plain words.');
    expect(parsed.html).toContain('<p>Plain words.</p>');
    expect(lines).toEqual([
      `mail: NOT SENT (no WOS_SMTP_URL), kept in the outbox: ${sent.file} (to rider@example.org: Hello)`,
    ]);
  });
});
