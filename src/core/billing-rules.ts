/**
 * What a paid plan gives, decided from the state Stripe reports for it.
 * Pure: the webhook handler stores the state, every reader asks
 * {@link hasPaidAccess} (through `hasProAccess` in `rider-rules.ts`), so the
 * answer moves with the clock (a cancelled plan ends at its period end even
 * when no event arrives then). Times are unix seconds (UTC).
 */
import type { PlanId } from './plans.ts';
import { HOUR_S } from './tailwind-window.ts';

const DAY_S = 24 * HOUR_S;

/** A paid plan: every plan of the catalog except Free. */
export type PaidPlanId = Exclude<PlanId, 'free'>;

/**
 * Stripe's subscription statuses, plus three of ours: `lifetime` (the
 * one-time plan, paid), `refunded` (its payment refunded in full) and
 * `disputed` (a payment under dispute).
 */
export const PAID_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
  'lifetime',
  'refunded',
  'disputed',
] as const;
export type PaidStatus = (typeof PAID_STATUSES)[number];

/**
 * Days a rider keeps Pro after a renewal fails (Stripe status `past_due`),
 * counted from the start of the period the failed invoice was for: Stripe's
 * default Smart Retries run for about a week, so a card fixed in that time
 * never loses access; past it, the plan is Free whatever Stripe still tries.
 */
export const GRACE_DAYS = 7;

/**
 * A renewal is confirmed by a webhook that can arrive some minutes after the
 * period ends (Stripe waits about an hour before finalising the invoice). A
 * plan that is not being cancelled keeps Pro this long past its period end,
 * so the rider never drops to Free while the renewal is on its way.
 */
export const RENEWAL_LEEWAY_S = DAY_S;

/** The stored state of a rider's paid plan. */
export interface PaidPlanState {
  readonly planId: PaidPlanId;
  readonly status: PaidStatus;
  /** Start of the current billing period; null for the lifetime plan. */
  readonly periodStart: number | null;
  /** End of the current billing period; null for the lifetime plan. */
  readonly periodEnd: number | null;
  /** The rider cancelled: the plan ends at `periodEnd` instead of renewing. */
  readonly cancelAtPeriodEnd: boolean;
}

/** Last second of the grace period after a failed renewal, or null when there is none. */
export function graceUntil(state: PaidPlanState): number | null {
  if (state.status !== 'past_due' || state.periodStart === null) return null;
  return state.periodStart + GRACE_DAYS * DAY_S;
}

/**
 * The second at which the plan's Pro access ends as things stand ('forever'
 * for the paid lifetime plan), or null when it gives none now.
 */
export function paidAccessEnd(state: PaidPlanState): number | 'forever' | null {
  switch (state.status) {
    case 'lifetime':
      return 'forever';
    case 'active':
    case 'trialing':
      if (state.periodEnd === null) return null;
      return state.cancelAtPeriodEnd ? state.periodEnd : state.periodEnd + RENEWAL_LEEWAY_S;
    case 'past_due':
      return graceUntil(state);
    default:
      return null;
  }
}

/** True while the paid plan gives Pro access at `nowS`. */
export function hasPaidAccess(state: PaidPlanState | null, nowS: number): boolean {
  if (state === null) return false;
  const end = paidAccessEnd(state);
  return end === 'forever' || (end !== null && nowS < end);
}

/** When the plan renews (a running subscription not being cancelled), else null. */
export function renewsAt(state: PaidPlanState): number | null {
  if (state.status !== 'active' && state.status !== 'trialing') return null;
  return state.cancelAtPeriodEnd ? null : state.periodEnd;
}
