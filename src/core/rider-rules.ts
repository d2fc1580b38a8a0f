/**
 * Product rules for signed-in riders, shared by the store, the rider MCP tools
 * and the plan catalog so a limit is written down exactly once. Pure: no I/O.
 * Times are unix seconds (UTC), like the forecast hours in `tailwind-window.ts`.
 */
import { hasPaidAccess, type PaidPlanState } from './billing-rules.ts';
import { OWN_SEGMENT_ALLOWANCE, TRIAL_DAYS } from './plans.ts';
import { isoTime } from './time.ts';

/**
 * The plan as the service enforces it: every paid plan (monthly, annual,
 * lifetime) unlocks the same features, so billing stays outside this rule.
 */
export type RiderPlan = 'free' | 'pro';

/** Every stored plan, for validation and the database check constraint. */
export const RIDER_PLANS: readonly RiderPlan[] = ['free', 'pro'];

/** The rider tools a free rider may call this often per calendar month (UTC), together. */
export const FREE_MONTHLY_CALLS = 20;

/** Tailwind that triggers an alert when the rider has not chosen one. */
export const ALERT_THRESHOLD_DEFAULT_KMH = 15;

/** Below this, alerts would fire on almost any breeze and turn into noise. */
export const ALERT_THRESHOLD_MIN_KMH = 5;

/** Above this, the forecast hardly ever reaches it and the alert would never fire. */
export const ALERT_THRESHOLD_MAX_KMH = 60;

/**
 * The chance a rider who asks for "only likely" alerts gets: 70% of ensemble
 * members, just above the two-in-three where the chance's words say "likely".
 */
export const ALERT_CHANCE_DEFAULT_PCT = 70;

/** A personal record longer than a day is a typing error, not a segment time. */
export const RECORD_MAX_S = 86_400;

/** How often a webhook delivery is tried before the alert is given up on. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/**
 * Most segments one rider may watch. get_my_tailwind_windows forecasts them
 * all in one batched request, and this keeps that request (and the answer an
 * assistant reads) a sensible size.
 */
export const WATCHLIST_MAX_SEGMENTS = 50;

/**
 * Ids of riders' own segments start with this. A catalog id is a slug with
 * single hyphens (`fr-alpe-d-huez`), so a double hyphen can never collide with
 * one, while the whole id still passes the tools' segment id pattern.
 */
export const OWN_SEGMENT_ID_PREFIX = 'my--';

/** True for an id that names a rider's own segment rather than a catalog one. */
export function isOwnSegmentId(id: string): boolean {
  return id.startsWith(OWN_SEGMENT_ID_PREFIX);
}

/** Seconds in one day. */
export const DAY_S = 86_400;

/** True for a threshold the rider may set: a finite number within the bounds, inclusive. */
export function isAlertThreshold(kmh: number): boolean {
  return Number.isFinite(kmh) && kmh >= ALERT_THRESHOLD_MIN_KMH && kmh <= ALERT_THRESHOLD_MAX_KMH;
}

/** True for a chance an alert may require: a whole percent from 1 to 100. */
export function isAlertChance(pct: number): boolean {
  return Number.isInteger(pct) && pct >= 1 && pct <= 100;
}

/** True for a personal record time: whole seconds, more than zero, at most a day. */
export function isRecordTime(seconds: number): boolean {
  return Number.isInteger(seconds) && seconds > 0 && seconds <= RECORD_MAX_S;
}

/** What decides a rider's access. */
export interface RiderAccess {
  readonly plan: RiderPlan;
  /** Unix seconds; null when the rider never had a trial. */
  readonly trialEndsAt: number | null;
  /** The rider's paid plan as Stripe last reported it; absent or null when they never bought one. */
  readonly paid?: PaidPlanState | null;
}

/** How many own segments this rider may keep right now (a trial counts as Pro). */
export function ownSegmentAllowance(rider: RiderAccess, nowS: number): number {
  return hasProAccess(rider, nowS) ? OWN_SEGMENT_ALLOWANCE.pro : OWN_SEGMENT_ALLOWANCE.free;
}

/** The trial is running until (not including) its end second. */
export function isInTrial(rider: RiderAccess, nowS: number): boolean {
  return rider.trialEndsAt !== null && nowS < rider.trialEndsAt;
}

/**
 * What plan the rider has now: the one rule every reader asks. Pro when the
 * stored plan is Pro (set by the operator) or a paid plan gives access at
 * `nowS` (`billing-rules.ts`: period end, grace, lifetime); else Free.
 */
export function planNow(rider: RiderAccess, nowS: number): RiderPlan {
  return rider.plan === 'pro' || hasPaidAccess(rider.paid ?? null, nowS) ? 'pro' : 'free';
}

/** Pro riders (operator or paid) and riders in their trial get the Pro features. */
export function hasProAccess(rider: RiderAccess, nowS: number): boolean {
  return planNow(rider, nowS) === 'pro' || isInTrial(rider, nowS);
}

/** The monthly call limit for the metered tools, or null when there is none. */
export function monthlyCallLimit(rider: RiderAccess, nowS: number): number | null {
  return hasProAccess(rider, nowS) ? null : FREE_MONTHLY_CALLS;
}

/** End of a trial started at `startS`. */
export function trialEnd(startS: number): number {
  return startS + TRIAL_DAYS * DAY_S;
}

/** The calendar month (UTC) a call counts against, as `YYYY-MM`: the usage table's key. */
export function usageMonth(nowS: number): string {
  return new Date(nowS * 1000).toISOString().slice(0, 7);
}

/** Unix seconds at which the allowance of the month containing `nowS` starts again. */
export function usageResetsAt(nowS: number): number {
  const now = new Date(nowS * 1000);
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000;
}

/** The `usage` object every metered answer carries; `resets_at` is ISO 8601 UTC like every time in the API. */
export interface UsageSummary {
  readonly used: number;
  readonly limit: number;
  readonly remaining: number;
  readonly resets_at: string;
}

/** Shapes a quota count for an answer; `remaining` never goes below zero. */
export function usageSummary(used: number, limit: number, nowS: number): UsageSummary {
  return {
    used,
    limit,
    remaining: Math.max(0, limit - used),
    resets_at: isoTime(usageResetsAt(nowS)),
  };
}
