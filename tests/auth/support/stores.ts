/**
 * Migrated stores for the auth tests: a SQLite file in a temporary folder,
 * and, when a server answers, a PostgreSQL database created for the run and
 * dropped after it (WOS_TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; WOS_REQUIRE_POSTGRES=1 makes a
 * missing server a failure instead of a skip).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openStore, type Store } from '../../../src/store/database.ts';
import { migrateToLatest } from '../../../src/store/migrate.ts';

export interface TestStore {
  readonly store: Store;
  dispose(): Promise<void>;
}

export async function sqliteTestStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-auth-'));
  const store = openStore({ engine: 'sqlite', path: join(dir, 'store.sqlite') });
  await migrateToLatest(store);
  return {
    store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const adminUrl = process.env['WOS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const NO_SERVER = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

async function admin(query: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answered; otherwise why the PostgreSQL tests skip. Throws under WOS_REQUIRE_POSTGRES=1. */
export async function postgresUnavailable(): Promise<string | null> {
  try {
    await admin('select 1');
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const down = (typeof code === 'string' && NO_SERVER.has(code)) || /timeout/i.test(String(error));
    if (!down) throw error;
    const reason = `no PostgreSQL server at ${new URL(adminUrl).host} (${String(code ?? 'timeout')})`;
    if (process.env['WOS_REQUIRE_POSTGRES'] === '1')
      throw new Error(`WOS_REQUIRE_POSTGRES=1 but ${reason}`, { cause: error });
    return reason;
  }
}

export async function postgresTestStore(): Promise<TestStore> {
  const name = `wos_auth_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const store = openStore({ engine: 'postgres', url: url.toString(), poolMax: 4 });
  await migrateToLatest(store);
  return {
    store,
    async dispose() {
      await store.close();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}
