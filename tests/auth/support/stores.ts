/**
 * Migrated stores for the auth tests: a SQLite file in a temporary folder,
 * and, when a server answers, a PostgreSQL database created for the run and
 * dropped after it (see tests/store/postgres-server.ts for the server and
 * when its tests skip).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../../src/store/database.ts';
import { migrateToLatest } from '../../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../../src/app/migrations.ts';
import { admin, databaseUrl } from '../../store/postgres-server.ts';

export interface TestStore {
  readonly store: Store;
  dispose(): Promise<void>;
}

export async function sqliteTestStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-auth-'));
  const store = openStore({ engine: 'sqlite', path: join(dir, 'store.sqlite') });
  await migrateToLatest(store, APP_MIGRATIONS);
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresTestStore(): Promise<TestStore> {
  const name = `wos_auth_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${name}"`);
  const store = openStore({ engine: 'postgres', url: databaseUrl(name), poolMax: 4 });
  await migrateToLatest(store, APP_MIGRATIONS);
  return {
    store,
    async dispose() {
      await store.close();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
