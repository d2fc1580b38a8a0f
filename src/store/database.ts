/**
 * Opens the rider store on one of two engines behind the same Kysely API:
 * an embedded SQLite file (the default: no setup, created on first start) or
 * PostgreSQL when `DATABASE_URL` is set (what a Vercel deployment uses, since a
 * serverless file system neither persists nor is shared between instances).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool, TypeOverrides, types as pgTypes } from 'pg';
import { NodeSqliteDialect, openSqliteFile } from './node-sqlite-dialect.ts';
import type { Database } from './schema.ts';

export type StoreEngine = 'sqlite' | 'postgres';

/** Where the SQLite file lives when `WOS_DATABASE_PATH` is not set, relative to the working directory (the settings' default). */
export const DEFAULT_SQLITE_PATH = 'data/wind-on-segment.sqlite';

/** Connections per PostgreSQL pool: small, because every serverless instance holds its own pool. */
export const DEFAULT_POOL_MAX = 4;

export type StoreConfig =
  | {
      readonly engine: 'sqlite';
      /** A file path (its parent folder is created) or `:memory:`. */
      readonly path: string;
    }
  | {
      readonly engine: 'postgres';
      /** `postgres://…`; `sslmode` and other libpq parameters in it are honoured. */
      readonly url: string;
      readonly poolMax?: number;
      /** Shown in `pg_stat_activity`, to tell this service's connections apart. */
      readonly applicationName?: string;
    };

export interface Store {
  readonly db: Kysely<Database>;
  readonly engine: StoreEngine;
  /** Ends the pool or closes the file; the store cannot be used afterwards. */
  close(): Promise<void>;
}

/** Opens the store; nothing is created or migrated until {@link migrateToLatest} runs. */
export function openStore(config: StoreConfig): Store {
  return config.engine === 'sqlite' ? openSqliteStore(config.path) : openPostgresStore(config);
}

function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Kysely<Database>({ dialect: new NodeSqliteDialect(openSqliteFile(path)) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

/** `int8` as a JS number: the store's bigint columns hold unix seconds, far below 2^53. */
function storeTypes(): TypeOverrides {
  const overrides = new TypeOverrides();
  overrides.setTypeParser(pgTypes.builtins.INT8, (text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw new RangeError(`int8 ${text} does not fit a JS number`);
    return value;
  });
  return overrides;
}

function openPostgresStore(config: Extract<StoreConfig, { engine: 'postgres' }>): Store {
  const pool = new Pool({
    connectionString: config.url,
    max: config.poolMax ?? DEFAULT_POOL_MAX,
    application_name: config.applicationName ?? 'wind-on-segment',
    types: storeTypes(),
  });
  // An idle client losing its server emits on the pool; unhandled, that would end the process. The
  // pool replaces the client, so one line says what happened (the error object carries the whole
  // client, connection parameters included, which would flood the log).
  pool.on('error', (error) =>
    console.error(`rider store: an idle PostgreSQL connection failed and is replaced: ${error.message}`),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}
