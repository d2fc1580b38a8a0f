/**
 * Sending mail: through an SMTP server with nodemailer when `WOS_SMTP_URL`
 * is set, else into an outbox folder with one clearly labelled log line per
 * message, so `npm start` needs no mail server and a developer can open the
 * `.eml` files (every mail client reads them). Both ways build the same
 * MIME message with the same library: what lands in the outbox is what SMTP
 * would have carried.
 *
 * Every message has a plain-text and an HTML part; the caller escapes the
 * HTML (`html-escape.ts`). Addresses are checked once more here
 * (`mail-address.ts`), and the subject loses any line break, so nothing a
 * rider or a catalog wrote can add a header or a recipient.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { headerText, isSendableAddress } from './mail-address.ts';

/** One message as the service composes it. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** A stable `Message-ID` (`<id@host>`), so a message sent twice reads as one in the rider's mail client. */
  readonly messageId?: string;
  /** RFC 2369 / RFC 8058: the one-click unsubscribe URL (`List-Unsubscribe` and `List-Unsubscribe-Post`). */
  readonly unsubscribeUrl?: string;
}

export interface SentMail {
  readonly messageId: string;
  /** The file the outbox wrote; absent when SMTP took the message. */
  readonly file?: string;
}

export interface Mailer {
  /** `smtp` or `outbox`: what the settings page and the start-up line say. */
  readonly kind: 'smtp' | 'outbox';
  /** Resolves once the server accepted the message (or the outbox wrote it); rejects with {@link MailError}. */
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/** A message the mailer could not hand over; `detail` is safe to store and show the rider. */
export class MailError extends Error {
  readonly detail: string;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(detail, options);
    this.name = 'MailError';
    this.detail = detail;
  }
}

/** How long the SMTP client waits for the connection, the greeting and any reply: a stalled server fails a send, never hangs it. */
export const SMTP_TIMEOUT_MS = 15_000;

/** Connections kept open to the SMTP server at most, as many as mails in flight in a delivery run. */
export const SMTP_CONNECTIONS = 4;

export interface MailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; unset writes to the outbox. */
  readonly smtpUrl?: string | undefined;
  /** The `From` header: `Name <address>` or an address. */
  readonly from: string;
  /** The outbox folder when there is no SMTP server. */
  readonly outbox: string;
  /** Per-step SMTP time limit; {@link SMTP_TIMEOUT_MS} by default. */
  readonly timeoutMs?: number;
  /** Where the outbox's labelled line goes; `console.log` by default. */
  readonly log?: (line: string) => void;
}

function nodemailerMessage(from: string, message: MailMessage) {
  if (!isSendableAddress(message.to)) throw new MailError('not sent: the address is not one mail can go to');
  return {
    from,
    to: message.to,
    subject: headerText(message.subject),
    text: message.text,
    html: message.html,
    ...(message.messageId ? { messageId: message.messageId } : {}),
    ...(message.unsubscribeUrl
      ? {
          list: { unsubscribe: message.unsubscribeUrl },
          headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        }
      : {}),
  };
}

/** The SMTP server's words for a failure: its reply code and text, or what happened to the connection. */
export function describeSmtpFailure(error: unknown): string {
  if (typeof error !== 'object' || error === null) return `mail not sent: ${String(error)}`;
  const { responseCode, response, code, message } = error as Record<string, unknown>;
  if (typeof responseCode === 'number') {
    const reply = typeof response === 'string' ? response.replace(/\s+/g, ' ').slice(0, 200) : '';
    return `the mail server refused the message (${responseCode}${reply ? `: ${reply}` : ''})`;
  }
  if (code === 'ETIMEDOUT') return 'the mail server did not answer in time';
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS')
    return `the mail server could not be reached (${typeof message === 'string' ? message : String(code)})`;
  return `mail not sent: ${typeof message === 'string' ? message : String(code)}`;
}

function smtpMailer(options: MailerOptions & { smtpUrl: string }): Mailer {
  const timeout = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  // Pooled: a run's mails reuse a few connections instead of a TCP and TLS handshake each.
  const transport = createTransport({
    pool: true,
    maxConnections: SMTP_CONNECTIONS,
    url: options.smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: 'smtp',
    async send(message) {
      const mail = nodemailerMessage(options.from, message);
      try {
        const info = await transport.sendMail(mail);
        return { messageId: info.messageId };
      } catch (error) {
        throw new MailError(describeSmtpFailure(error), { cause: error });
      }
    },
    close: () => transport.close(),
  };
}

/** A file name from the time and the message id: sortable, and nothing a rider wrote. */
function outboxName(messageId: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${messageId.replace(/[^A-Za-z0-9.-]+/g, '_').slice(0, 80)}.eml`;
}

function outboxMailer(options: MailerOptions): Mailer {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const log = options.log ?? ((line: string) => console.log(line));
  return {
    kind: 'outbox',
    async send(message) {
      const mail = nodemailerMessage(options.from, message);
      const info = await transport.sendMail(mail);
      await mkdir(options.outbox, { recursive: true });
      const file = join(options.outbox, outboxName(info.messageId, new Date()));
      await writeFile(file, info.message);
      log(
        `mail: NOT SENT (no WOS_SMTP_URL), kept in the outbox: ${file} (to ${message.to}: ${mail.subject})`,
      );
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer({ ...options, smtpUrl: options.smtpUrl }) : outboxMailer(options);
}
