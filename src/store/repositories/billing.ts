/**
 * Payments in the store: a rider's Stripe customer, their paid plan and the
 * log of webhook events. The webhook handler (`src/billing/stripe-webhook.ts`)
 * writes all three in one transaction per event, so an event is either
 * handled whole (plan changed and logged) or not at all, and a second
 * delivery of it finds its id here and changes nothing.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { graceUntil, type PaidPlanState } from '../../core/billing-rules.ts';
import { nowSeconds } from '../clock.ts';
import type { BillingPlanTable, Database } from '../schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** A rider's paid plan columns as read beside the rider row (a left join: all null without one). */
export interface PaidPlanColumns {
  readonly plan_id: BillingPlanTable['plan_id'] | null;
  readonly status: BillingPlanTable['status'] | null;
  readonly period_start: number | null;
  readonly period_end: number | null;
  readonly cancel_at_period_end: boolean | number | null;
}

/** The columns {@link paidStateOf} reads, for a `select` joined on `billing_plan`. */
export const PAID_PLAN_SELECT = [
  'billing_plan.plan_id',
  'billing_plan.status',
  'billing_plan.period_start',
  'billing_plan.period_end',
  'billing_plan.cancel_at_period_end',
] as const;

export function paidStateOf(row: PaidPlanColumns): PaidPlanState | null {
  if (row.plan_id === null || row.status === null) return null;
  return {
    planId: row.plan_id,
    status: row.status,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    cancelAtPeriodEnd: Boolean(row.cancel_at_period_end),
  };
}

export interface BillingCustomer {
  readonly riderId: string;
  readonly customerId: string;
  readonly lastPayment: { readonly at: number; readonly amount: number; readonly currency: string } | null;
}

function toCustomer(row: Selectable<Database['billing_customer']>): BillingCustomer {
  return {
    riderId: row.rider_id,
    customerId: row.customer_id,
    lastPayment:
      row.last_payment_at !== null && row.last_payment_amount !== null && row.last_payment_currency !== null
        ? { at: row.last_payment_at, amount: row.last_payment_amount, currency: row.last_payment_currency }
        : null,
  };
}

export async function findCustomerOfRider(db: Db, riderId: string): Promise<BillingCustomer | undefined> {
  const row = await db
    .selectFrom('billing_customer')
    .selectAll()
    .where('rider_id', '=', riderId)
    .executeTakeFirst();
  return row && toCustomer(row);
}

export async function findCustomerById(db: Db, customerId: string): Promise<BillingCustomer | undefined> {
  const row = await db
    .selectFrom('billing_customer')
    .selectAll()
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row && toCustomer(row);
}

/**
 * Links a rider to a Stripe customer unless they already have one; returns
 * the rider's customer either way, so two racing checkouts agree on one
 * (the loser's new customer is simply never used). Undefined when the rider
 * no longer exists.
 */
export async function linkCustomer(
  db: Db,
  riderId: string,
  customerId: string,
  now: number = nowSeconds(),
): Promise<BillingCustomer | undefined> {
  const rider = await db.selectFrom('rider').select('id').where('id', '=', riderId).executeTakeFirst();
  if (!rider) return undefined;
  await db
    .insertInto('billing_customer')
    .values({
      rider_id: riderId,
      customer_id: customerId,
      created_at: now,
      last_payment_at: null,
      last_payment_amount: null,
      last_payment_currency: null,
    })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return findCustomerOfRider(db, riderId);
}

export interface Payment {
  readonly at: number;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
}

/** Records a payment as the rider's last one, unless a later one is already recorded (events come in any order). */
export async function recordPayment(db: Db, riderId: string, payment: Payment): Promise<void> {
  await db
    .updateTable('billing_customer')
    .set({
      last_payment_at: payment.at,
      last_payment_amount: payment.amount,
      last_payment_currency: payment.currency,
    })
    .where('rider_id', '=', riderId)
    .where((eb) => eb.or([eb('last_payment_at', 'is', null), eb('last_payment_at', '<=', payment.at)]))
    .execute();
}

export interface StoredPaidPlan extends PaidPlanState {
  readonly stripeRef: string;
}

export async function findPaidPlan(db: Db, riderId: string): Promise<StoredPaidPlan | undefined> {
  const row = await db
    .selectFrom('billing_plan')
    .selectAll()
    .where('rider_id', '=', riderId)
    .executeTakeFirst();
  const state = row && paidStateOf(row);
  return row && state ? { ...state, stripeRef: row.stripe_ref } : undefined;
}

/** Writes the rider's paid plan as Stripe now reports it (the whole state, not a change). */
export async function savePaidPlan(
  db: Db,
  riderId: string,
  plan: StoredPaidPlan,
  now: number = nowSeconds(),
): Promise<void> {
  const values = {
    plan_id: plan.planId,
    status: plan.status,
    stripe_ref: plan.stripeRef,
    period_start: plan.periodStart,
    period_end: plan.periodEnd,
    cancel_at_period_end: plan.cancelAtPeriodEnd,
    grace_until: graceUntil(plan),
    updated_at: now,
  };
  await db
    .insertInto('billing_plan')
    .values({ rider_id: riderId, ...values })
    .onConflict((conflict) => conflict.column('rider_id').doUpdateSet(values))
    .execute();
}

export interface BillingEventRecord {
  readonly id: string;
  readonly type: string;
  readonly created: number;
  readonly riderId: string | null;
  readonly outcome: string;
}

/** True when an event with this id was handled already. */
export async function eventSeen(db: Db, eventId: string): Promise<boolean> {
  const row = await db.selectFrom('billing_event').select('id').where('id', '=', eventId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Logs an event as handled; false when its id is logged already (a second
 * delivery racing the first): the caller's transaction then rolls back.
 */
export async function logEvent(
  db: Db,
  event: BillingEventRecord,
  now: number = nowSeconds(),
): Promise<boolean> {
  const row = await db
    .insertInto('billing_event')
    .values({
      id: event.id,
      type: event.type,
      created: event.created,
      processed_at: now,
      rider_id: event.riderId,
      outcome: event.outcome,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function listEvents(db: Db, limit = 100): Promise<BillingEventRecord[]> {
  const rows = await db
    .selectFrom('billing_event')
    .selectAll()
    .orderBy('processed_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    created: row.created,
    riderId: row.rider_id,
    outcome: row.outcome,
  }));
}
