/**
 * A small table of expiring values for scheduled jobs: the alert job's lock
 * and its resume cursor when no Redis is configured. The store is the one
 * thing every instance of the cron function already shares, so overlapping
 * runs are kept apart and a cursor outlives the invocation that wrote it
 * on every deployment, not only on those with Redis.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const jobStateMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('job_state')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('job_state').execute();
  },
};
