import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRIAL_DAYS } from '../../src/core/plans.ts';
import {
  ALERT_THRESHOLD_MAX_KMH,
  ALERT_THRESHOLD_MIN_KMH,
  FREE_MONTHLY_CALLS,
  hasProAccess,
  isAlertThreshold,
  isInTrial,
  isRecordTime,
  monthlyCallLimit,
  trialEnd,
  usageMonth,
  usageResetsAt,
  usageSummary,
} from '../../src/core/rider-rules.ts';

const second = fc.integer({ min: 0, max: 4_102_444_800 });

describe('rider rules', () => {
  it('accepts exactly the thresholds within the bounds', () => {
    expect(isAlertThreshold(ALERT_THRESHOLD_MIN_KMH)).toBe(true);
    expect(isAlertThreshold(ALERT_THRESHOLD_MAX_KMH)).toBe(true);
    expect(isAlertThreshold(NaN)).toBe(false);
    fc.assert(
      fc.property(fc.double(), (kmh) => {
        const inside = kmh >= ALERT_THRESHOLD_MIN_KMH && kmh <= ALERT_THRESHOLD_MAX_KMH;
        expect(isAlertThreshold(kmh)).toBe(inside);
      }),
    );
  });

  it('accepts record times of whole seconds from 1 s to a day', () => {
    expect([1, 86_400].map(isRecordTime)).toEqual([true, true]);
    expect([0, -1, 1.5, 86_401, NaN, Infinity].map(isRecordTime)).toEqual(Array(6).fill(false));
  });

  it('gives Pro access to pro riders always and to free riders only before the trial ends', () => {
    fc.assert(
      fc.property(second, fc.option(second), (now, trialEndsAt) => {
        expect(hasProAccess({ plan: 'pro', trialEndsAt }, now)).toBe(true);
        const inTrial = trialEndsAt !== null && now < trialEndsAt;
        expect(isInTrial({ plan: 'free', trialEndsAt }, now)).toBe(inTrial);
        expect(monthlyCallLimit({ plan: 'free', trialEndsAt }, now)).toBe(
          inTrial ? null : FREE_MONTHLY_CALLS,
        );
        expect(monthlyCallLimit({ plan: 'pro', trialEndsAt }, now)).toBeNull();
      }),
    );
    expect(isInTrial({ plan: 'free', trialEndsAt: 100 }, 100)).toBe(false);
    expect(trialEnd(1000)).toBe(1000 + TRIAL_DAYS * 86_400);
  });

  it('counts usage per UTC calendar month and resets at the first second of the next', () => {
    expect(usageMonth(Date.UTC(2026, 0, 31, 23, 59, 59) / 1000)).toBe('2026-01');
    expect(usageMonth(Date.UTC(2026, 1, 1) / 1000)).toBe('2026-02');
    expect(usageResetsAt(Date.UTC(2026, 11, 15, 12) / 1000)).toBe(Date.UTC(2027, 0, 1) / 1000);
    fc.assert(
      fc.property(second, (now) => {
        const resets = usageResetsAt(now);
        expect(resets).toBeGreaterThan(now);
        expect(usageMonth(resets - 1)).toBe(usageMonth(now));
        expect(usageMonth(resets)).not.toBe(usageMonth(now));
        expect(usageMonth(now)).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
      }),
    );
  });

  it('shapes the usage object with remaining never below zero and resets_at in ISO 8601 UTC', () => {
    const now = Date.UTC(2026, 4, 20, 8, 30) / 1000;
    expect(usageSummary(7, 20, now)).toEqual({
      used: 7,
      limit: 20,
      remaining: 13,
      resets_at: '2026-06-01T00:00:00Z',
    });
    expect(usageSummary(25, 20, now).remaining).toBe(0);
  });
});
