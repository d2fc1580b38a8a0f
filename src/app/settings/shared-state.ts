/** Where the instances share their state (limits, forecast cache, locks): memory when unset. */
import { setting } from './setting-field.ts';

export const SHARED_STATE_SETTINGS = {
  REDIS_URL: setting<string | undefined>({
    group: 'server',
    shownDefault: 'unset (memory)',
    description: 'State shared by every instance (see "Shared state")',
    accepts: 'a redis:// or rediss:// URL',
    secret: true,
    parse: (text) => (/^rediss?:\/\//i.test(text) ? text : undefined),
    fallback: undefined,
  }),
};
