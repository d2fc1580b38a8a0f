/**
 * The store contract on PostgreSQL, in a database created for this run and
 * dropped after it, so parallel runs never meet. Server: WOS_TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/test; the user must be allowed to
 * create databases). When no server answers, these tests skip and say why;
 * WOS_REQUIRE_POSTGRES=1 turns that skip into a failure (for CI).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_MONTHLY_CALLS } from '../../src/core/rider-rules.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { consumeQuota } from '../../src/store/repositories/usage.ts';
import { describeStoreContract } from './contract.ts';
import { makeRider } from './contract-helpers.ts';

const adminUrl = process.env['WOS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = `wos_store_${process.pid}_${randomBytes(4).toString('hex')}`;
const NO_SERVER = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

async function admin<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Null when a server answered; otherwise why not. Any other failure (bad password…) fails the file. */
async function whyNoServer(): Promise<string | null> {
  try {
    await admin((client) => client.query('select 1'));
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const timedOut = error instanceof Error && /timeout/i.test(error.message);
    if (typeof code === 'string' && NO_SERVER.has(code)) return code;
    if (timedOut) return 'connection timeout';
    throw error;
  }
}

function urlFor(name: string, searchPath?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (searchPath) url.searchParams.set('options', `-c search_path=${searchPath}`);
  return url.toString();
}

const noServer = await whyNoServer();
const where = new URL(adminUrl).host;
if (noServer) {
  const reason = `no PostgreSQL server answered at ${where} (${noServer})`;
  if (process.env['WOS_REQUIRE_POSTGRES'] === '1') throw new Error(`WOS_REQUIRE_POSTGRES=1 but ${reason}`);
  console.warn(`PostgreSQL store tests skipped: ${reason}; set WOS_TEST_DATABASE_URL to run them`);
}

describe.skipIf(noServer !== null)(
  noServer ? `PostgreSQL store (skipped: no server at ${where})` : 'PostgreSQL store',
  () => {
    beforeAll(() => admin((client) => client.query(`create database "${database}"`)));
    afterAll(() => admin((client) => client.query(`drop database if exists "${database}" with (force)`)));

    describeStoreContract('postgres', () =>
      openStore({ engine: 'postgres', url: urlFor(database), poolMax: 8 }),
    );

    describe('PostgreSQL specifics', () => {
      const applicationName = `wos-race-${randomBytes(4).toString('hex')}`;
      let store: Store | undefined;
      afterAll(() => store?.close());

      it(`serves exactly ${FREE_MONTHLY_CALLS} of 50 concurrent calls spread over several pooled connections`, async () => {
        store = openStore({ engine: 'postgres', url: urlFor(database), poolMax: 8, applicationName });
        await migrateToLatest(store);
        const rider = await makeRider(store);
        const db = store.db;
        const results = await Promise.all(
          Array.from({ length: 50 }, () => consumeQuota(db, rider.id, '2026-08', FREE_MONTHLY_CALLS)),
        );
        expect(results.filter((result) => result.allowed)).toHaveLength(FREE_MONTHLY_CALLS);
        const { rows } = await sql<{ connections: number }>`
          select count(*) as connections from pg_stat_activity
          where application_name = ${applicationName} and datname = current_database()`.execute(db);
        expect(rows[0]?.connections).toBeGreaterThan(1);
      });

      it('migrates into the schema named by search_path, one history per schema', async () => {
        const setup = openStore({ engine: 'postgres', url: urlFor(database) });
        await setup.db.schema.createSchema('tenant_a').execute();
        await setup.db.schema.createSchema('tenant_b').execute();
        await setup.close();
        for (const schema of ['tenant_a', 'tenant_b']) {
          const scoped = openStore({ engine: 'postgres', url: urlFor(database, schema) });
          try {
            expect((await migrateToLatest(scoped)).applied).toEqual(['0001_initial', '0002_auth']);
            const tables = await scoped.db.introspection.getTables();
            expect(
              tables
                .filter((table) => table.schema === schema)
                .map((table) => table.name)
                .sort(),
            ).toEqual([
              'account',
              'alert',
              'jwks',
              'oauthAccessToken',
              'oauthClient',
              'oauthClientAssertion',
              'oauthClientResource',
              'oauthConsent',
              'oauthRefreshToken',
              'oauthResource',
              'rider',
              'session',
              'store_migration',
              'store_migration_lock',
              'usage',
              'user',
              'verification',
              'watch',
            ]);
          } finally {
            await scoped.close();
          }
        }
      });
    });
  },
);
