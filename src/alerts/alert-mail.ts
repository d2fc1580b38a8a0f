/**
 * The alert email: a plain-text part and an HTML part saying the same, the
 * window on the segment's clock, a link to the segment, and how to stop
 * these mails (a visible link, and `List-Unsubscribe` with one-click POST,
 * RFC 8058, which mail apps show as their own Unsubscribe button). Every
 * name goes into the HTML escaped and into the subject without line breaks
 * (the mailer's `headerText`), so a segment called `<b>x</b>\r\nBcc: …` is
 * shown as those characters and adds no header.
 */
import { escapeHtml } from '../data/mail/html-escape.ts';
import type { MailMessage } from '../data/mail/mailer.ts';
import type { AlertWords } from './alert-message.ts';

export interface AlertMailInput {
  readonly to: string;
  readonly alertId: string;
  readonly words: AlertWords;
  /** The one-click endpoint (POST) that turns email alerts off. */
  readonly unsubscribeUrl: string;
  /** The page a person lands on from the link in the mail. */
  readonly unsubscribePage: string;
  readonly settingsUrl: string;
  /** The host for the stable Message-ID. */
  readonly host: string;
}

export function alertMail(input: AlertMailInput): MailMessage {
  const { words } = input;
  const text = [
    `${words.title}`,
    '',
    `${words.when}: ${words.strength}.`,
    '',
    `The segment: ${words.link}`,
    `Your alerts and watchlist: ${input.settingsUrl}`,
    '',
    '--',
    'You get this because you watch this segment with tailwind alerts on.',
    `Stop alerts by email (push, calendar and webhook stay as they are): ${input.unsubscribePage}`,
  ].join('\r\n');
  const e = escapeHtml;
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${e(words.title)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a;">',
    `<h1 style="font-size: 1.3rem;">${e(words.title)}</h1>`,
    `<p><strong>${e(words.when)}</strong>: ${e(words.strength)}.</p>`,
    `<p><a href="${e(words.link)}">See the segment and its wind</a> · <a href="${e(input.settingsUrl)}">Your alerts</a></p>`,
    '<hr>',
    '<p style="font-size: 0.9rem; color: #555;">You get this because you watch this segment with tailwind alerts on. ',
    `<a href="${e(input.unsubscribePage)}">Stop alerts by email</a> (push, calendar and webhook stay as they are).</p>`,
    '</body></html>',
  ].join('\r\n');
  return {
    to: input.to,
    subject: `${words.title}: ${words.when}`,
    text,
    html,
    messageId: `<alert-${input.alertId}@${input.host}>`,
    unsubscribeUrl: input.unsubscribeUrl,
  };
}
