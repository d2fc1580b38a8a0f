/**
 * The first rider store schema. Column types are ones both engines accept with
 * the same meaning (`text`, `integer`, `bigint`, `double precision`, `boolean`),
 * so one migration serves SQLite and PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const initialMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('rider')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('plan', 'text', (col) => col.notNull().defaultTo('free'))
      .addColumn('trial_ends_at', 'bigint')
      .addColumn('webhook_url', 'text')
      .addColumn('webhook_secret', 'text')
      .addCheckConstraint('rider_plan_known', sql`plan in ('free', 'pro')`)
      .addCheckConstraint('rider_webhook_pair', sql`(webhook_url is null) = (webhook_secret is null)`)
      .execute();

    await db.schema
      .createTable('watch')
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('segment_id', 'text', (col) => col.notNull())
      .addColumn('record_s', 'integer')
      .addColumn('alerts_on', 'boolean', (col) => col.notNull().defaultTo(true))
      .addColumn('threshold_kmh', 'double precision', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('watch_pk', ['rider_id', 'segment_id'])
      .addCheckConstraint('watch_record_positive', sql`record_s is null or record_s > 0`)
      .addCheckConstraint('watch_threshold_positive', sql`threshold_kmh > 0`)
      .execute();

    await db.schema
      .createTable('alert')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('segment_id', 'text', (col) => col.notNull())
      .addColumn('window_start', 'bigint', (col) => col.notNull())
      .addColumn('window_end', 'bigint', (col) => col.notNull())
      .addColumn('peak_tailwind_kmh', 'double precision', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('delivered_at', 'bigint')
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addUniqueConstraint('alert_once_per_window', ['rider_id', 'segment_id', 'window_start'])
      .addCheckConstraint('alert_window_order', sql`window_end > window_start`)
      .execute();
    await db.schema
      .createIndex('alert_rider_recent')
      .on('alert')
      .columns(['rider_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('alert_undelivered')
      .on('alert')
      .column('created_at')
      .where(sql.ref('delivered_at'), 'is', null)
      .execute();

    await db.schema
      .createTable('usage')
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('month', 'text', (col) => col.notNull())
      .addColumn('calls', 'integer', (col) => col.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('usage_pk', ['rider_id', 'month'])
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['usage', 'alert', 'watch', 'rider']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
