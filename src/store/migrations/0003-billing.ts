/**
 * Payments (Stripe): which Stripe customer a rider is, the state of their
 * paid plan, and every webhook event handled, keyed by its id so a replayed
 * or re-sent event is recognised and changes nothing. Plan and event rows of
 * a deleted rider go with the rider, except the event log, which keeps its
 * lines (without a foreign key) as the record of what was done.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { PAID_STATUSES } from '../../core/billing-rules.ts';

const quoted = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const billingMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('billing_customer')
      .addColumn('rider_id', 'text', (col) => col.primaryKey().references('rider.id').onDelete('cascade'))
      .addColumn('customer_id', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_payment_at', 'bigint')
      /** In the currency's minor unit (cents), as Stripe counts. */
      .addColumn('last_payment_amount', 'bigint')
      .addColumn('last_payment_currency', 'text')
      .execute();

    await db.schema
      .createTable('billing_plan')
      .addColumn('rider_id', 'text', (col) => col.primaryKey().references('rider.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      /** The Stripe subscription (`sub_…`) or, for the lifetime plan, payment intent (`pi_…`). */
      .addColumn('stripe_ref', 'text', (col) => col.notNull())
      .addColumn('period_start', 'bigint')
      .addColumn('period_end', 'bigint')
      .addColumn('cancel_at_period_end', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('grace_until', 'bigint')
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addCheckConstraint('billing_plan_known', sql`plan_id in ('pro_monthly', 'pro_annual', 'pro_lifetime')`)
      .addCheckConstraint('billing_plan_status_known', sql`status in (${quoted(PAID_STATUSES)})`)
      .execute();
    await db.schema.createIndex('billing_plan_stripe_ref').on('billing_plan').column('stripe_ref').execute();

    await db.schema
      .createTable('billing_event')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('type', 'text', (col) => col.notNull())
      /** Stripe's `created` of the event. */
      .addColumn('created', 'bigint', (col) => col.notNull())
      .addColumn('processed_at', 'bigint', (col) => col.notNull())
      .addColumn('rider_id', 'text')
      .addColumn('outcome', 'text', (col) => col.notNull())
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of ['billing_event', 'billing_plan', 'billing_customer']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
