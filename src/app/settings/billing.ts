/**
 * Payments through Stripe: the keys, the webhook secret and one price per paid
 * plan and currency. Payments are on with every required variable set and off
 * with none; anything between stops start-up naming what is missing
 * ({@link billingConfigOf}), so a deployment never shows a Buy button that
 * leads nowhere.
 */
import type { BillingConfig } from '../../billing/config.ts';
import { SettingsError } from './settings-error.ts';
import { setting, type SettingSpec, type SettingValues } from './setting-field.ts';
import { httpUrl } from './text-readers.ts';

const PRICE_PLANS = { MONTHLY: 'Pro Monthly', ANNUAL: 'Pro Annual', LIFETIME: 'Pro Lifetime' } as const;

/** `STRIPE_PRICE_<PLAN>_<CURRENCY>`: the six Stripe prices, one per paid plan and currency. */
function priceSettings() {
  const entries = (Object.keys(PRICE_PLANS) as (keyof typeof PRICE_PLANS)[]).flatMap((plan) =>
    (['EUR', 'USD'] as const).map(
      (currency) =>
        [
          `STRIPE_PRICE_PRO_${plan}_${currency}`,
          setting<string | undefined>({
            group: 'payments',
            shownDefault: 'unset',
            description: `Stripe price id of ${PRICE_PLANS[plan]} in ${currency}`,
            accepts: 'a Stripe price id (price_…)',
            parse: (text) => (/^price_[A-Za-z0-9_]+$/.test(text) ? text : undefined),
            fallback: undefined,
          }),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<
    `STRIPE_PRICE_PRO_${keyof typeof PRICE_PLANS}_${'EUR' | 'USD'}`,
    SettingSpec<string | undefined>
  >;
}

export const BILLING_SETTINGS = {
  STRIPE_SECRET_KEY: setting<string | undefined>({
    group: 'payments',
    shownDefault: 'unset (no payments)',
    description: 'Stripe secret key (`sk_test_…` in test mode); with the rest below, turns payments on',
    accepts: 'a Stripe secret or restricted key (sk_… or rk_…)',
    secret: true,
    parse: (text) => (/^(sk|rk)_[A-Za-z0-9_]+$/.test(text) ? text : undefined),
    fallback: undefined,
  }),
  STRIPE_WEBHOOK_SECRET: setting<string | undefined>({
    group: 'payments',
    shownDefault: 'unset',
    description: 'Signing secret of the webhook endpoint `/api/billing/webhook`',
    accepts: 'a Stripe webhook signing secret (whsec_…)',
    secret: true,
    parse: (text) => (/^whsec_[A-Za-z0-9_+/=]+$/.test(text) ? text : undefined),
    fallback: undefined,
  }),
  ...priceSettings(),
  STRIPE_API_BASE: setting<string | undefined>({
    group: 'payments',
    shownDefault: "Stripe's API",
    description: 'Another Stripe API origin: the local test double (`npm run stripe:double`)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
};

type BillingEnvironment = SettingValues<typeof BILLING_SETTINGS>;

/** Payments as the billing service takes them, `undefined` with every `STRIPE_*` variable unset. */
export function billingConfigOf(v: BillingEnvironment): BillingConfig | undefined {
  const required = {
    STRIPE_SECRET_KEY: v.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: v.STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO_MONTHLY_EUR: v.STRIPE_PRICE_PRO_MONTHLY_EUR,
    STRIPE_PRICE_PRO_MONTHLY_USD: v.STRIPE_PRICE_PRO_MONTHLY_USD,
    STRIPE_PRICE_PRO_ANNUAL_EUR: v.STRIPE_PRICE_PRO_ANNUAL_EUR,
    STRIPE_PRICE_PRO_ANNUAL_USD: v.STRIPE_PRICE_PRO_ANNUAL_USD,
    STRIPE_PRICE_PRO_LIFETIME_EUR: v.STRIPE_PRICE_PRO_LIFETIME_EUR,
    STRIPE_PRICE_PRO_LIFETIME_USD: v.STRIPE_PRICE_PRO_LIFETIME_USD,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  const anySet = missing.length < Object.keys(required).length || v.STRIPE_API_BASE !== undefined;
  if (!anySet) return undefined;
  if (missing.length > 0) {
    throw new SettingsError(
      `Payments are only partly configured: set ${missing.join(', ')} too, ` +
        'or unset every STRIPE_* variable to run without payments (see "Payments (Stripe)" in docs/operating.md).',
    );
  }
  const price = (name: keyof typeof required): string => required[name] ?? '';
  return {
    secretKey: price('STRIPE_SECRET_KEY'),
    webhookSecret: price('STRIPE_WEBHOOK_SECRET'),
    prices: {
      pro_monthly: { eur: price('STRIPE_PRICE_PRO_MONTHLY_EUR'), usd: price('STRIPE_PRICE_PRO_MONTHLY_USD') },
      pro_annual: { eur: price('STRIPE_PRICE_PRO_ANNUAL_EUR'), usd: price('STRIPE_PRICE_PRO_ANNUAL_USD') },
      pro_lifetime: {
        eur: price('STRIPE_PRICE_PRO_LIFETIME_EUR'),
        usd: price('STRIPE_PRICE_PRO_LIFETIME_USD'),
      },
    },
    apiBase: v.STRIPE_API_BASE,
  };
}
