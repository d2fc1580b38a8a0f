import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_PATH, openStore, type Store } from '../../src/store/database.ts';
import { storeConfigFromEnv } from '../support/settings.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { describeStoreContract } from './contract.ts';
import { STORE_TABLES } from './contract-helpers.ts';

const folder = mkdtempSync(join(tmpdir(), 'wos-store-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeStoreContract('sqlite', () => openStore({ engine: 'sqlite', path: join(folder, 'contract.sqlite') }));

async function withStore<T>(path: string, use: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ engine: 'sqlite', path });
  try {
    await migrateToLatest(store, APP_MIGRATIONS);
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('SQLite store configuration', () => {
  it('uses DATABASE_URL for PostgreSQL, else WOS_DATABASE_PATH, else the default file under the cwd', () => {
    const url = 'postgres://u:p@db.example.com:5432/wos?sslmode=require';
    expect(storeConfigFromEnv({ DATABASE_URL: url, WOS_DATABASE_PATH: 'x.sqlite' }, '/srv')).toEqual({
      engine: 'postgres',
      url,
    });
    expect(storeConfigFromEnv({ DATABASE_URL: 'postgresql://h/db' }, '/srv').engine).toBe('postgres');
    expect(storeConfigFromEnv({ WOS_DATABASE_PATH: 'state/riders.db' }, '/srv')).toEqual({
      engine: 'sqlite',
      path: '/srv/state/riders.db',
    });
    expect(storeConfigFromEnv({ WOS_DATABASE_PATH: '/var/lib/wos.sqlite' }, '/srv')).toEqual({
      engine: 'sqlite',
      path: '/var/lib/wos.sqlite',
    });
    expect(storeConfigFromEnv({ DATABASE_URL: ' ', WOS_DATABASE_PATH: '' }, '/srv')).toEqual({
      engine: 'sqlite',
      path: join('/srv', DEFAULT_SQLITE_PATH),
    });
    expect(storeConfigFromEnv({ WOS_DATABASE_PATH: ':memory:' }, '/srv')).toEqual({
      engine: 'sqlite',
      path: ':memory:',
    });
  });

  it('refuses a DATABASE_URL it cannot serve, and SQLite on Vercel', () => {
    expect(() => storeConfigFromEnv({ DATABASE_URL: 'mysql://h/db' })).toThrow(/postgres/);
    expect(() => storeConfigFromEnv({ VERCEL: '1' })).toThrow(/DATABASE_URL/);
  });

  it('creates the file and its parent folders on first start, with WAL and foreign keys on', async () => {
    const config = storeConfigFromEnv({}, join(folder, 'fresh-cwd'));
    if (config.engine !== 'sqlite') throw new Error('expected the SQLite default');
    const { path } = config;
    expect(existsSync(path)).toBe(false);
    await withStore(path, async (store) => {
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      expect(rows[0]?.journal_mode).toBe('wal');
      const keys = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db);
      expect(keys.rows[0]?.foreign_keys).toBe(1);
    });
    expect(existsSync(path)).toBe(true);
  });

  it('works in memory for throwaway use', async () => {
    await withStore(':memory:', async (store) => {
      const tables = await store.db.introspection.getTables();
      expect(tables.map((table) => table.name).sort()).toEqual(STORE_TABLES);
    });
  });

  it('takes the write lock when a transaction begins (BEGIN IMMEDIATE), even before it writes', async () => {
    const path = join(folder, 'immediate.sqlite');
    await withStore(path, async (store) => {
      const other = new DatabaseSync(path, { timeout: 0 });
      try {
        await store.db.transaction().execute(async (trx) => {
          await trx.selectFrom('rider').select('id').execute();
          expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
        });
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
      } finally {
        other.close();
      }
    });
  });

  it('serialises concurrent read-modify-write transactions over its one connection', async () => {
    await withStore(join(folder, 'serial.sqlite'), async (store) => {
      await store.db
        .insertInto('rider')
        .values({ id: 'r', email: 'r@example.com', created_at: 0, plan: 'free', trial_ends_at: 0 })
        .execute();
      await Promise.all(
        Array.from({ length: 25 }, () =>
          store.db.transaction().execute(async (trx) => {
            const row = await trx
              .selectFrom('rider')
              .select('trial_ends_at')
              .where('id', '=', 'r')
              .executeTakeFirst();
            await new Promise((resolve) => setTimeout(resolve, 1));
            await trx
              .updateTable('rider')
              .set({ trial_ends_at: (row?.trial_ends_at ?? 0) + 1 })
              .where('id', '=', 'r')
              .execute();
          }),
        ),
      );
      const row = await store.db.selectFrom('rider').select('trial_ends_at').executeTakeFirst();
      expect(row?.trial_ends_at).toBe(25);
    });
  });
});
