/**
 * Where a rider hears of a tailwind besides the webhook: email (on by
 * default, to a verified address only), Web Push to each browser or phone
 * the rider turned it on in, and a private calendar feed. One row per alert,
 * channel and target in `alert_delivery` makes every channel deliver a
 * window at most once, with its own attempts, back-off and last error for
 * the settings page. `service_secret` keeps what the deployment makes once
 * for itself (the VAPID key pair), shared by every instance.
 *
 * The calendar feed's secret is kept only as its SHA-256 (like a password:
 * a copy of the store does not open anyone's calendar); the unsubscribe
 * token is random and carries no meaning. Unique columns get their own index
 * because SQLite cannot add a column with a UNIQUE constraint.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const riderChannelsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('rider')
      .addColumn('email_alerts', 'boolean', (col) => col.notNull().defaultTo(true))
      .execute();
    await db.schema
      .alterTable('rider')
      .addColumn('push_alerts', 'boolean', (col) => col.notNull().defaultTo(true))
      .execute();
    await db.schema.alterTable('rider').addColumn('unsubscribe_token', 'text').execute();
    await db.schema.alterTable('rider').addColumn('calendar_token_hash', 'text').execute();
    await db.schema
      .createIndex('rider_unsubscribe_token')
      .unique()
      .on('rider')
      .column('unsubscribe_token')
      .execute();
    await db.schema
      .createIndex('rider_calendar_token_hash')
      .unique()
      .on('rider')
      .column('calendar_token_hash')
      .execute();

    await db.schema
      .createTable('push_subscription')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (col) => col.notNull().unique())
      .addColumn('p256dh', 'text', (col) => col.notNull())
      .addColumn('auth', 'text', (col) => col.notNull())
      /** What the rider's browser called itself when subscribing ("Chrome on Android"), to tell devices apart. */
      .addColumn('label', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('push_subscription_rider')
      .on('push_subscription')
      .column('rider_id')
      .execute();

    await db.schema
      .createTable('alert_delivery')
      .addColumn('alert_id', 'text', (col) => col.notNull().references('alert.id').onDelete('cascade'))
      .addColumn('channel', 'text', (col) => col.notNull())
      /** '' for email; the push subscription's id for push. */
      .addColumn('target', 'text', (col) => col.notNull())
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (col) => col.notNull())
      .addColumn('delivered_at', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('alert_delivery_key', ['alert_id', 'channel', 'target'])
      .addCheckConstraint('alert_delivery_channel_known', sql`channel in ('email', 'push')`)
      .addCheckConstraint(
        'alert_delivery_state_known',
        sql`state in ('pending', 'sending', 'delivered', 'failed', 'gave_up', 'dropped')`,
      )
      .execute();
    await db.schema
      .createIndex('alert_delivery_due')
      .on('alert_delivery')
      .columns(['state', 'next_attempt_at'])
      .execute();
    await db.schema.createIndex('alert_delivery_rider').on('alert_delivery').column('rider_id').execute();
    // Each run looks for the alerts whose window has not ended: a range read, not a scan of every alert kept.
    await db.schema.createIndex('alert_window_end').on('alert').column('window_end').execute();

    await db.schema
      .createTable('service_secret')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('service_secret').execute();
    await db.schema.dropIndex('alert_window_end').execute();
    await db.schema.dropTable('alert_delivery').execute();
    await db.schema.dropTable('push_subscription').execute();
    await db.schema.dropIndex('rider_calendar_token_hash').execute();
    await db.schema.dropIndex('rider_unsubscribe_token').execute();
    for (const column of ['calendar_token_hash', 'unsubscribe_token', 'push_alerts', 'email_alerts']) {
      await db.schema.alterTable('rider').dropColumn(column).execute();
    }
  },
};
