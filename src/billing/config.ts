/**
 * How payments are configured: the Stripe keys and, for each paid plan of
 * the catalog and each currency, the Stripe price a checkout charges. The
 * catalog (`src/core/plans.ts`) stays the one source of the prices shown;
 * Stripe's prices must match it (docs/operating.md, "Payments (Stripe)").
 */
import type { PaidPlanId } from '../core/billing-rules.ts';

export const CURRENCIES = ['eur', 'usd'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PAID_PLAN_IDS: readonly PaidPlanId[] = ['pro_monthly', 'pro_annual', 'pro_lifetime'];

export interface BillingConfig {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Stripe price id per plan and currency. */
  readonly prices: Readonly<Record<PaidPlanId, Readonly<Record<Currency, string>>>>;
  /** Another Stripe API origin (the local test double); unset, Stripe's own. */
  readonly apiBase?: string | undefined;
}

export interface PricedPlan {
  readonly planId: PaidPlanId;
  readonly currency: Currency;
}

/** The plan and currency a Stripe price id stands for, or undefined for a price not configured. */
export function planOfPrice(config: Pick<BillingConfig, 'prices'>, priceId: string): PricedPlan | undefined {
  for (const planId of PAID_PLAN_IDS) {
    for (const currency of CURRENCIES) {
      if (config.prices[planId][currency] === priceId) return { planId, currency };
    }
  }
  return undefined;
}
