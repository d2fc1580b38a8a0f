/** Where the instances share their state (limits, forecast cache, locks): memory when unset. */
import { z } from 'zod';
import { settingField } from './setting-field.ts';

export const SharedStateSettingsSchema = z.object({
  REDIS_URL: settingField<string | undefined>({
    group: 'server',
    shownDefault: 'unset (memory)',
    description: 'State shared by every instance (see "Shared state")',
    accepts: 'a redis:// or rediss:// URL',
    secret: true,
    parse: (text) => (/^rediss?:\/\//i.test(text) ? text : undefined),
    fallback: undefined,
  }),
});
