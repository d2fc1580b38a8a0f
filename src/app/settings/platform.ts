/** What Vercel sets on its deployments: read to refuse a SQLite store there and to allow its hosts at `/mcp`. */
import { z } from 'zod';
import { settingField } from './setting-field.ts';
import { anyText } from './text-readers.ts';

export const PlatformSettingsSchema = z.object({
  VERCEL: settingField({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: 'On Vercel: the rider store must be PostgreSQL and the auth secret set',
    accepts: 'any value',
    parse: () => true,
    fallback: false,
  }),
  VERCEL_URL: settingField<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The deployment's own host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_BRANCH_URL: settingField<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The branch deployment's host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_PROJECT_PRODUCTION_URL: settingField<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The project's production host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
});
