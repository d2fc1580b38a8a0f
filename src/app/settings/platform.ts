/** What Vercel sets on its deployments: read to refuse a SQLite store there and to allow its hosts at `/mcp`. */
import { setting } from './setting-field.ts';
import { anyText } from './text-readers.ts';

export const PLATFORM_SETTINGS = {
  VERCEL: setting({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: 'On Vercel: the rider store must be PostgreSQL and the auth secret set',
    accepts: 'any value',
    parse: () => true,
    fallback: false,
  }),
  VERCEL_URL: setting<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The deployment's own host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_BRANCH_URL: setting<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The branch deployment's host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_PROJECT_PRODUCTION_URL: setting<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The project's production host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
};
