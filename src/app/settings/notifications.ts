/**
 * How riders are reached: mail through an SMTP server (or the outbox folder
 * when there is none, the offline default) and Web Push, whose VAPID keys
 * are made at first start and kept in the rider store, so the only push
 * setting is the contact push services may write to.
 */
import { isSendableAddress } from '../../data/mail/mail-address.ts';
import { setting, type SettingValues } from './setting-field.ts';
import { anyText } from './text-readers.ts';

/** The `From` a deployment without `WOS_MAIL_FROM` uses: fine for the outbox, to be set for real mail. */
export const DEFAULT_MAIL_FROM = 'wind-on-segment <alerts@localhost>';

/** `Name <address>` or a bare address, with nothing that could start another header. */
function mailFrom(text: string): string | undefined {
  const named = /^([^<>\r\n"]{1,80}) <([^<>\s]+)>$/.exec(text);
  const address = named ? named[2] : text;
  return address !== undefined && isSendableAddress(address) ? text : undefined;
}

export const NOTIFICATION_SETTINGS = {
  WOS_SMTP_URL: setting<string | undefined>({
    group: 'riders',
    shownDefault: 'unset (outbox folder)',
    description:
      'SMTP server for verification, password and alert mail, e.g. `smtp://user:pass@smtp.example.org:587` (STARTTLS) or `smtps://…:465`; unset keeps every message in `WOS_MAIL_OUTBOX` and logs it, sending nothing',
    accepts: 'an smtp:// or smtps:// URL',
    secret: true,
    parse: (text) => (/^smtps?:\/\/[^/?#\s]+/i.test(text) && URL.canParse(text) ? text : undefined),
    fallback: undefined,
  }),
  WOS_MAIL_FROM: setting({
    group: 'riders',
    shownDefault: `\`${DEFAULT_MAIL_FROM}\``,
    description: 'The `From` of every mail: an address your SMTP server may send as',
    accepts: 'an address or "Name <address>"',
    parse: mailFrom,
    fallback: DEFAULT_MAIL_FROM,
  }),
  WOS_MAIL_OUTBOX: setting({
    group: 'riders',
    shownDefault: '`data/outbox`',
    description: 'Folder the messages go to, one `.eml` file each, when `WOS_SMTP_URL` is unset',
    accepts: 'a folder path',
    parse: anyText,
    fallback: 'data/outbox',
  }),
  WOS_PUSH_CONTACT: setting<string | undefined>({
    group: 'riders',
    shownDefault: '`mailto:` and the `From` address',
    description:
      'The VAPID contact push services may write to about this deployment (`mailto:…` or an https URL); the keys themselves are made at first start and kept in the rider store',
    accepts: 'a mailto: or https: URL',
    parse: (text) => (/^(mailto:\S+@\S+|https:\/\/\S+)$/i.test(text) ? text : undefined),
    fallback: undefined,
  }),
};

type NotificationEnvironment = SettingValues<typeof NOTIFICATION_SETTINGS>;

/** The mail and push settings as the services take them. */
export function notificationsOf(v: NotificationEnvironment) {
  const fromAddress = /<([^<>]+)>$/.exec(v.WOS_MAIL_FROM)?.[1] ?? v.WOS_MAIL_FROM;
  return {
    smtpUrl: v.WOS_SMTP_URL,
    from: v.WOS_MAIL_FROM,
    outbox: v.WOS_MAIL_OUTBOX,
    pushContact: v.WOS_PUSH_CONTACT ?? `mailto:${fromAddress}`,
  };
}
