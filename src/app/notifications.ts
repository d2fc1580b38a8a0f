/**
 * The mailer and the push keys as the sign-in service, the settings API and
 * the alert job take them, from the mail and push settings
 * (`settings/notifications.ts`). Links in mails sent outside a request (the
 * alert job) need an origin: `WOS_SITE_URL`, else this server's own address.
 */
import { createMailer, type Mailer } from '../data/mail/mailer.ts';
import { vapidKeys } from '../rider/push-keys.ts';
import type { Store } from '../store/database.ts';
import type { Settings } from './settings.ts';
import type { AlertJobDeps } from '../alerts/run.ts';

export function openMailer(settings: Settings): Mailer {
  const { smtpUrl, from, outbox } = settings.notifications;
  return createMailer({ smtpUrl, from, outbox: settings.onVercel && !smtpUrl ? '/tmp/wos-outbox' : outbox });
}

/** Where the links of alert mails and notifications point. */
export function linksOrigin(settings: Settings): string {
  return settings.siteOrigin ?? `http://localhost:${settings.port}`;
}

/** Email and push for the alert job. */
export function alertChannels(
  settings: Settings,
  store: Store,
  mailer: Mailer,
): NonNullable<AlertJobDeps['channels']> {
  return {
    mailer,
    origin: linksOrigin(settings),
    push: {
      keys: () => vapidKeys(store.db, Math.floor(Date.now() / 1000)),
      contact: settings.notifications.pushContact,
    },
  };
}
