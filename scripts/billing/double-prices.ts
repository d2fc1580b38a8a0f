/**
 * The test double's prices: one per paid plan and currency, named
 * `price_<plan>_<currency>`, with the amounts of the plan catalog, and the
 * billing configuration that points the service at them.
 */
import type { BillingConfig } from '../../src/billing/config.ts';
import { CURRENCIES, PAID_PLAN_IDS } from '../../src/billing/config.ts';
import { PLANS } from '../../src/core/plans.ts';
import type { DoublePrice } from './stripe-double.ts';

export const DOUBLE_SECRET_KEY = 'sk_test_double_0123456789';
export const DOUBLE_WEBHOOK_SECRET = 'whsec_double0123456789abcdef';

/** '€4.99' → 499, '$165' → 16500. */
function minorUnits(shown: string): number {
  return Math.round(Number(shown.replace(/[^0-9.]/g, '')) * 100);
}

export function doublePrices(): Record<string, DoublePrice> {
  const prices: Record<string, DoublePrice> = {};
  for (const planId of PAID_PLAN_IDS) {
    const plan = PLANS.find((p) => p.id === planId);
    if (!plan) throw new Error(`plan ${planId} missing from the catalog`);
    for (const currency of CURRENCIES) {
      prices[`price_${planId}_${currency}`] = {
        currency,
        amount: minorUnits(plan.price[currency]),
        interval: plan.billing === 'monthly' ? 'month' : plan.billing === 'yearly' ? 'year' : null,
      };
    }
  }
  return prices;
}

export function doubleBillingConfig(apiBase: string): BillingConfig {
  const price = (planId: (typeof PAID_PLAN_IDS)[number]) => ({
    eur: `price_${planId}_eur`,
    usd: `price_${planId}_usd`,
  });
  return {
    secretKey: DOUBLE_SECRET_KEY,
    webhookSecret: DOUBLE_WEBHOOK_SECRET,
    prices: {
      pro_monthly: price('pro_monthly'),
      pro_annual: price('pro_annual'),
      pro_lifetime: price('pro_lifetime'),
    },
    apiBase,
  };
}

/** The environment that points `npm start` at a double on `apiBase`. */
export function doubleEnvironment(apiBase: string): Record<string, string> {
  const config = doubleBillingConfig(apiBase);
  const env: Record<string, string> = {
    STRIPE_SECRET_KEY: config.secretKey,
    STRIPE_WEBHOOK_SECRET: config.webhookSecret,
    STRIPE_API_BASE: apiBase,
  };
  for (const planId of PAID_PLAN_IDS) {
    for (const currency of CURRENCIES) {
      env[`STRIPE_PRICE_${planId.toUpperCase()}_${currency.toUpperCase()}`] = config.prices[planId][currency];
    }
  }
  return env;
}
