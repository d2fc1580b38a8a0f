/**
 * Where riders are stored: PostgreSQL when `DATABASE_URL` is set, else a
 * SQLite file. The choice is made by {@link storeConfigOf}, asked only by the
 * services that open the store, so the REST function starts without one.
 */
import { resolve } from 'node:path';
import type { StoreConfig } from '../../store/database.ts';
import { SettingsError } from './settings-error.ts';
import { setting, type SettingValues } from './setting-field.ts';
import { anyText } from './text-readers.ts';

export const STORE_SETTINGS = {
  DATABASE_URL: setting<string | undefined>({
    group: 'riders',
    shownDefault: 'unset (SQLite)',
    description: 'PostgreSQL rider store; required on Vercel',
    accepts: 'a postgres:// or postgresql:// URL',
    secret: true,
    parse: (text) => (/^postgres(ql)?:\/\//i.test(text) ? text : undefined),
    fallback: undefined,
  }),
  WOS_DATABASE_PATH: setting({
    group: 'riders',
    shownDefault: '`data/wind-on-segment.sqlite`',
    description: 'SQLite rider store file (or `:memory:`) when `DATABASE_URL` is unset',
    accepts: 'a file path or ":memory:"',
    parse: anyText,
    fallback: 'data/wind-on-segment.sqlite',
  }),
};

type StoreEnvironment = SettingValues<typeof STORE_SETTINGS>;

/** The two store variables as the settings carry them, before the choice is made. */
export function storeOf(v: StoreEnvironment) {
  return { databaseUrl: v.DATABASE_URL, sqlitePath: v.WOS_DATABASE_PATH };
}

/** What {@link storeConfigOf} reads of the settings. */
interface StoreChoice {
  readonly store: ReturnType<typeof storeOf>;
  readonly onVercel: boolean;
}

/**
 * The rider store the settings choose: PostgreSQL when `DATABASE_URL` is set,
 * else the SQLite file (relative paths resolve from `cwd`). Refuses SQLite on
 * Vercel, where the file would vanish with the instance.
 */
export function storeConfigOf(settings: StoreChoice, cwd: string = process.cwd()): StoreConfig {
  const { databaseUrl, sqlitePath } = settings.store;
  if (databaseUrl) return { engine: 'postgres', url: databaseUrl };
  if (settings.onVercel) {
    throw new SettingsError(
      'Set DATABASE_URL to a PostgreSQL database: a SQLite file does not persist on Vercel',
    );
  }
  return { engine: 'sqlite', path: sqlitePath === ':memory:' ? sqlitePath : resolve(cwd, sqlitePath) };
}
