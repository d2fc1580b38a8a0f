/** When tailwind alerts are evaluated: by `npm start`'s own timer, or by Vercel Cron with a bearer token. */
import { setting } from './setting-field.ts';
import { anyText, wholeNumber } from './text-readers.ts';

export const ALERT_SETTINGS = {
  WOS_ALERTS_INTERVAL_MS: setting<number | null>({
    group: 'riders',
    shownDefault: '`900000` (15 min)',
    description: 'How often `npm start` evaluates tailwind alerts; `0` turns the job off',
    accepts: '0 (off) or a whole number of milliseconds from 60000 to 86400000',
    parse: (text) => (text === '0' ? null : wholeNumber(60_000, 86_400_000)(text)),
    fallback: 900_000,
  }),
  CRON_SECRET: setting<string | undefined>({
    group: 'riders',
    shownDefault: 'unset (every call refused)',
    description: 'Bearer token `/api/cron-alerts` requires (Vercel Cron sends it)',
    accepts: 'a token',
    secret: true,
    parse: anyText,
    fallback: undefined,
  }),
};
