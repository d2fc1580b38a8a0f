/**
 * The two mails of the sign-in service: "confirm your address" after
 * sign-up, and "reset your password". Each says what the link does, how
 * long it works, and what to do when the rider did not ask for it. The
 * address and link are the only variable parts; both are escaped in the HTML.
 */
import { escapeHtml } from '../data/mail/html-escape.ts';
import type { MailMessage } from '../data/mail/mailer.ts';
import { RESET_TOKEN_TTL_S, VERIFY_TOKEN_TTL_S } from '../rider/access-policy.ts';

function html(title: string, paragraphs: readonly string[], link: { url: string; label: string }): string {
  const e = escapeHtml;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${e(title)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a;">',
    `<h1 style="font-size: 1.3rem;">${e(title)}</h1>`,
    `<p><a href="${e(link.url)}">${e(link.label)}</a></p>`,
    ...paragraphs.map((text) => `<p>${e(text)}</p>`),
    '</body></html>',
  ].join('\r\n');
}

export function verificationMail(to: string, url: string): MailMessage {
  const title = 'Confirm your email address';
  const hours = VERIFY_TOKEN_TTL_S / 3600;
  const lines = [
    `Someone, probably you, made a wind-on-segment rider account for ${to}.`,
    `The link confirms this address, so tailwind alerts by email can reach it. It works for ${hours} hours.`,
    'If you did not sign up, ignore this mail: nothing is sent to this address until it is confirmed.',
  ];
  return {
    to,
    subject: 'Confirm your email address for wind-on-segment',
    text: [title, '', lines[0], '', url, '', lines[1], lines[2]].join('\r\n'),
    html: html(title, lines, { url, label: 'Confirm this address' }),
  };
}

export function resetMail(to: string, url: string): MailMessage {
  const title = 'Reset your password';
  const minutes = RESET_TOKEN_TTL_S / 60;
  const lines = [
    `Someone asked to reset the password of the wind-on-segment account of ${to}.`,
    `The link works once, for ${minutes} minutes. Setting a new password signs out every browser.`,
    'If you did not ask, ignore this mail: your password stays as it is.',
  ];
  return {
    to,
    subject: 'Reset your wind-on-segment password',
    text: [title, '', lines[0], '', url, '', lines[1], lines[2]].join('\r\n'),
    html: html(title, lines, { url, label: 'Choose a new password' }),
  };
}
