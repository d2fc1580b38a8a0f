/** The authorization server's one setting: the secret its sign-ins and token keys depend on. */
import { setting } from './setting-field.ts';

export const AUTH_SETTINGS = {
  BETTER_AUTH_SECRET: setting<string | undefined>({
    group: 'riders',
    shownDefault: 'generated beside the SQLite file',
    description: 'Signs sign-ins and encrypts the token keys; required with PostgreSQL or on Vercel',
    accepts: 'at least 32 characters (try: openssl rand -base64 32)',
    secret: true,
    parse: (text) => (text.length >= 32 ? text : undefined),
    fallback: undefined,
  }),
};
