/**
 * A real SMTP server in the test's process (the `smtp-server` package, the
 * one nodemailer's own tests use), which keeps every message it accepts and
 * parses it with `mailparser`, so a test reads the delivered MIME message:
 * headers, the text and HTML parts, the links in them. Its `mode` makes it
 * misbehave the ways a real server does: `refuse` answers the message with
 * 550, `stall` takes the message and never answers (the client's time-out
 * must end the attempt). Plain SMTP on 127.0.0.1, no STARTTLS and no
 * authentication.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  readonly raw: string;
  readonly mail: ParsedMail;
  readonly to: readonly string[];
}

export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`: what `WOS_SMTP_URL` would be. */
  readonly url: string;
  readonly messages: CaughtMail[];
  mode: 'accept' | 'refuse' | 'stall';
  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  /** The first message `match` accepts, once it has arrived; rejects after `timeoutMs`. */
  waitForMail(match: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const stalled: (() => void)[] = [];
  let mode: SmtpCatcher['mode'] = 'accept';
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (mode === 'stall') {
          stalled.push(() => callback());
          return;
        }
        if (mode === 'refuse') {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        void simpleParser(raw).then((mail) => {
          messages.push({ raw, mail, to });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get mode() {
      return mode;
    },
    set mode(value) {
      mode = value;
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages;
    },
    async waitForMail(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such mail among ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        stalled.splice(0);
        server.close(() => resolve());
      }),
  };
}

/** The message's header block with folded lines joined (RFC 5322 §2.2.3), to read a header as sent. */
export function headersOf(mail: CaughtMail): string {
  const end = mail.raw.indexOf('\r\n\r\n');
  return mail.raw.slice(0, end).replace(/\r\n[ \t]+/g, ' ');
}

/** The first link in a mail's text part that starts with `prefix`. */
export function linkIn(mail: CaughtMail, prefix: string): string {
  const text = mail.mail.text ?? '';
  const found = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${text}`);
  return found;
}
