/**
 * Riders: the signed-in people behind `/mcp/rider`. One row per rider, keyed by
 * a text id so it can reuse the auth library's user id.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { PaidPlanState } from '../../core/billing-rules.ts';
import { RIDER_PLANS, type RiderPlan } from '../../core/rider-rules.ts';
import { nowSeconds } from '../clock.ts';
import type { Database, RiderTable } from '../schema.ts';
import { PAID_PLAN_SELECT, paidStateOf, type PaidPlanColumns } from './billing.ts';

type Db = Kysely<Database>;

export interface RiderWebhook {
  readonly url: string;
  /** Signs each delivery so the receiver can tell it came from this service. */
  readonly secret: string;
}

export interface Rider {
  readonly id: string;
  readonly email: string;
  /** Unix seconds. */
  readonly createdAt: number;
  readonly plan: RiderPlan;
  /** Unix seconds; null when the rider never had a trial. */
  readonly trialEndsAt: number | null;
  readonly webhook: RiderWebhook | null;
  /** The paid plan as Stripe last reported it; null when the rider never bought one. */
  readonly paid: PaidPlanState | null;
}

export interface NewRider {
  readonly email: string;
  /** Defaults to a random UUID; pass the auth library's user id to link the two. */
  readonly id?: string;
  readonly plan?: RiderPlan;
  readonly trialEndsAt?: number | null;
}

/** Thrown when the id or the email already belongs to a rider. */
export class DuplicateRiderError extends Error {
  constructor(email: string) {
    super(`a rider with this id or email already exists: ${email}`);
    this.name = 'DuplicateRiderError';
  }
}

function toRider(row: Selectable<RiderTable>, paid: PaidPlanColumns | null = null): Rider {
  return {
    paid: paid && paidStateOf(paid),
    id: row.id,
    email: row.email,
    createdAt: row.created_at,
    plan: row.plan,
    trialEndsAt: row.trial_ends_at,
    webhook:
      row.webhook_url !== null && row.webhook_secret !== null
        ? { url: row.webhook_url, secret: row.webhook_secret }
        : null,
  };
}

function assertPlan(plan: string): void {
  if (!(RIDER_PLANS as readonly string[]).includes(plan)) throw new RangeError(`unknown plan ${plan}`);
}

/** Creates a rider; throws {@link DuplicateRiderError} instead of a driver-specific unique violation. */
export async function createRider(db: Db, input: NewRider, now: number = nowSeconds()): Promise<Rider> {
  const plan = input.plan ?? 'free';
  assertPlan(plan);
  const row = await db
    .insertInto('rider')
    .values({
      id: input.id ?? randomUUID(),
      email: input.email,
      created_at: now,
      plan,
      trial_ends_at: input.trialEndsAt ?? null,
      webhook_url: null,
      webhook_secret: null,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new DuplicateRiderError(input.email);
  return toRider(row);
}

/** The rider row with its paid plan beside it (null columns when there is none). */
function riderWithPlan(db: Db) {
  return db
    .selectFrom('rider')
    .leftJoin('billing_plan', 'billing_plan.rider_id', 'rider.id')
    .selectAll('rider')
    .select(PAID_PLAN_SELECT);
}

export async function findRiderById(db: Db, riderId: string): Promise<Rider | undefined> {
  const row = await riderWithPlan(db).where('rider.id', '=', riderId).executeTakeFirst();
  return row && toRider(row, row);
}

/** Exact match: addresses are compared as stored. */
export async function findRiderByEmail(db: Db, email: string): Promise<Rider | undefined> {
  const row = await riderWithPlan(db).where('rider.email', '=', email).executeTakeFirst();
  return row && toRider(row, row);
}

/** Returns whether the rider exists (and so was changed). */
export async function setRiderPlan(db: Db, riderId: string, plan: RiderPlan): Promise<boolean> {
  assertPlan(plan);
  const result = await db.updateTable('rider').set({ plan }).where('id', '=', riderId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Starts, moves or (with null) ends a trial; returns whether the rider exists. */
export async function setRiderTrial(db: Db, riderId: string, trialEndsAt: number | null): Promise<boolean> {
  if (trialEndsAt !== null && !Number.isSafeInteger(trialEndsAt)) {
    throw new RangeError('trialEndsAt must be whole unix seconds');
  }
  const result = await db
    .updateTable('rider')
    .set({ trial_ends_at: trialEndsAt })
    .where('id', '=', riderId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets or (with null) removes the rider's alert webhook; returns whether the rider exists. */
export async function setRiderWebhook(
  db: Db,
  riderId: string,
  webhook: RiderWebhook | null,
): Promise<boolean> {
  const result = await db
    .updateTable('rider')
    .set({ webhook_url: webhook?.url ?? null, webhook_secret: webhook?.secret ?? null })
    .where('id', '=', riderId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
