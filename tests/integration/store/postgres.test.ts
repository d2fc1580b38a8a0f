/**
 * The store contract on PostgreSQL, in a database created for this run and
 * dropped after it, so parallel runs never meet. The server, and when these
 * tests skip: see postgres-server.ts.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_MONTHLY_CALLS } from '../../../src/core/rider-rules.ts';
import { openStore, type Store } from '../../../src/store/database.ts';
import { migrateToLatest } from '../../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../../src/app/migrations.ts';
import { consumeQuota } from '../../../src/store/repositories/usage.ts';
import { describeStoreContract } from '../../store/contract.ts';
import { ALL_MIGRATIONS, makeRider, STORE_TABLES } from '../../store/contract-helpers.ts';
import { admin, databaseUrl, postgresUnavailable } from '../../store/postgres-server.ts';

const database = `wos_store_${process.pid}_${randomBytes(4).toString('hex')}`;

const noServer = await postgresUnavailable();
if (noServer)
  console.warn(`PostgreSQL store tests skipped: ${noServer}; set WOS_TEST_DATABASE_URL to run them`);

describe.skipIf(noServer !== null)(
  noServer ? `PostgreSQL store (skipped: ${noServer})` : 'PostgreSQL store',
  () => {
    beforeAll(() => admin(`create database "${database}"`));
    afterAll(() => admin(`drop database if exists "${database}" with (force)`));

    describeStoreContract('postgres', () =>
      openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 8 }),
    );

    describe('PostgreSQL specifics', () => {
      const applicationName = `wos-race-${randomBytes(4).toString('hex')}`;
      let store: Store | undefined;
      afterAll(() => store?.close());

      it(`serves exactly ${FREE_MONTHLY_CALLS} of 50 concurrent calls spread over several pooled connections`, async () => {
        store = openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 8, applicationName });
        await migrateToLatest(store, APP_MIGRATIONS);
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
        const setup = openStore({ engine: 'postgres', url: databaseUrl(database) });
        await setup.db.schema.createSchema('tenant_a').execute();
        await setup.db.schema.createSchema('tenant_b').execute();
        await setup.close();
        for (const schema of ['tenant_a', 'tenant_b']) {
          const scoped = openStore({ engine: 'postgres', url: databaseUrl(database, schema) });
          try {
            expect((await migrateToLatest(scoped, APP_MIGRATIONS)).applied).toEqual(ALL_MIGRATIONS);
            const tables = await scoped.db.introspection.getTables();
            expect(
              tables
                .filter((table) => table.schema === schema)
                .map((table) => table.name)
                .sort(),
            ).toEqual(STORE_TABLES);
          } finally {
            await scoped.close();
          }
        }
      });
    });
  },
);
