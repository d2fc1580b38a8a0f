/**
 * The paid-plan rule: what access a Stripe state gives at a given second,
 * and how it combines with the operator's plan and the trial.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GRACE_DAYS,
  hasPaidAccess,
  paidAccessEnd,
  PAID_STATUSES,
  RENEWAL_LEEWAY_S,
  renewsAt,
  type PaidPlanState,
} from '../../src/core/billing-rules.ts';
import { DAY_S, hasProAccess, planNow } from '../../src/core/rider-rules.ts';

const T0 = 1_795_000_000;
const monthly = (over: Partial<PaidPlanState> = {}): PaidPlanState => ({
  planId: 'pro_monthly',
  status: 'active',
  periodStart: T0,
  periodEnd: T0 + 30 * DAY_S,
  cancelAtPeriodEnd: false,
  ...over,
});

describe('paid access', () => {
  it('runs to the period end when cancelling, a day past it when renewing', () => {
    const end = T0 + 30 * DAY_S;
    expect(hasPaidAccess(monthly({ cancelAtPeriodEnd: true }), end - 1)).toBe(true);
    expect(hasPaidAccess(monthly({ cancelAtPeriodEnd: true }), end)).toBe(false);
    expect(hasPaidAccess(monthly(), end + RENEWAL_LEEWAY_S - 1)).toBe(true);
    expect(hasPaidAccess(monthly(), end + RENEWAL_LEEWAY_S)).toBe(false);
    expect(renewsAt(monthly())).toBe(end);
    expect(renewsAt(monthly({ cancelAtPeriodEnd: true }))).toBeNull();
  });

  it(`gives ${GRACE_DAYS} days of grace from the period start after a failed renewal`, () => {
    const pastDue = monthly({ status: 'past_due' });
    expect(paidAccessEnd(pastDue)).toBe(T0 + GRACE_DAYS * DAY_S);
    expect(hasPaidAccess(pastDue, T0 + GRACE_DAYS * DAY_S - 1)).toBe(true);
    expect(hasPaidAccess(pastDue, T0 + GRACE_DAYS * DAY_S)).toBe(false);
  });

  it('is for good on lifetime, and never on an ended, refunded or disputed plan, at any second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom(...PAID_STATUSES), (now, status) => {
        const state = monthly({ status, periodStart: null, periodEnd: null });
        const expected = status === 'lifetime';
        expect(hasPaidAccess(state, now)).toBe(expected);
      }),
    );
  });

  it('never lasts beyond paidAccessEnd, and is the plan every reader gets through planNow', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAID_STATUSES),
        fc.integer({ min: 0, max: 2 ** 32 }),
        fc.integer({ min: 1, max: 400 * DAY_S }),
        fc.boolean(),
        fc.integer({ min: -DAY_S * 500, max: DAY_S * 500 }),
        (status, start, length, cancel, offset) => {
          const state = monthly({
            status,
            periodStart: start,
            periodEnd: start + length,
            cancelAtPeriodEnd: cancel,
          });
          const now = start + offset;
          const end = paidAccessEnd(state);
          const access = hasPaidAccess(state, now);
          if (end !== 'forever') expect(access).toBe(end !== null && now < end);
          const rider = { plan: 'free' as const, trialEndsAt: null, paid: state };
          expect(planNow(rider, now)).toBe(access ? 'pro' : 'free');
          expect(hasProAccess(rider, now)).toBe(access);
          expect(planNow({ ...rider, plan: 'pro' }, now)).toBe('pro');
        },
      ),
    );
  });
});
