/**
 * The link between a better-auth user and our `rider` row: same id, same
 * (normalised) email. Sign-up creates the row through a database hook; every
 * reader goes through {@link ensureRider} too, so a row lost to a crash
 * between the two inserts is recreated on first use instead of breaking the
 * rider's tools.
 */
import type { Kysely } from 'kysely';
import { hasProAccess, trialEnd } from '../core/rider-rules.ts';
import { nowSeconds } from '../store/clock.ts';
import type { Database } from '../store/schema.ts';
import { createRider, DuplicateRiderError, findRiderById, type Rider } from '../store/repositories/riders.ts';

export { findRiderById, type Rider };

/** The fields of a better-auth user this link needs. */
export interface AuthUser {
  readonly id: string;
  readonly email: string;
  /** When the account was created: the trial runs from here. */
  readonly createdAt: Date | string | number;
}

/** Unix seconds from whatever the auth adapter hands back (a Date, ISO text or milliseconds). */
export function toUnixSeconds(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : nowSeconds();
}

/**
 * Creates the rider row for a new account: plan free, Pro trial for
 * TRIAL_DAYS from the account's creation (what the pricing page promises).
 * Idempotent: an existing row with this id is returned untouched.
 */
export async function ensureRider(db: Kysely<Database>, user: AuthUser): Promise<Rider> {
  const existing = await findRiderById(db, user.id);
  if (existing) return existing;
  const createdAt = toUnixSeconds(user.createdAt);
  try {
    return await createRider(
      db,
      { id: user.id, email: user.email, plan: 'free', trialEndsAt: trialEnd(createdAt) },
      createdAt,
    );
  } catch (error) {
    // Two requests raced to create it: the other one won, which is fine.
    const raced = error instanceof DuplicateRiderError ? await findRiderById(db, user.id) : undefined;
    if (raced) return raced;
    throw error;
  }
}

/** Whether a rider has Pro access now (paid or trial), and when their trial ends (Unix seconds, or null). */
export interface RiderAccess {
  readonly pro: boolean;
  readonly trialEndsAt: number | null;
}

/**
 * A rider's Pro access at `nowS`, as the public tools ask it; undefined for
 * an id with no rider row (the tools then answer as to anyone), never a new
 * row: reading access is not a reason to create an account.
 */
export async function riderAccessOf(
  db: Kysely<Database>,
  riderId: string,
  nowS: number,
): Promise<RiderAccess | undefined> {
  const rider = await findRiderById(db, riderId);
  return rider && { pro: hasProAccess(rider, nowS), trialEndsAt: rider.trialEndsAt };
}
