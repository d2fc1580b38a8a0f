/** The authorization server's one setting: the secret its sign-ins and token keys depend on. */
import { z } from 'zod';
import { settingField } from './setting-field.ts';

export const AuthSettingsSchema = z.object({
  BETTER_AUTH_SECRET: settingField<string | undefined>({
    group: 'riders',
    shownDefault: 'generated beside the SQLite file',
    description: 'Signs sign-ins and encrypts the token keys; required with PostgreSQL or on Vercel',
    accepts: 'at least 32 characters (try: openssl rand -base64 32)',
    secret: true,
    parse: (text) => (text.length >= 32 ? text : undefined),
    fallback: undefined,
  }),
});
