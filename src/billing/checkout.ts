/**
 * The rider's side of payments, behind the settings API's session check
 * (`src/account/account-api.ts`): start a Checkout for a plan and currency, open
 * the customer portal, and the billing part of `GET /api/rider/me`.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { hasPaidAccess, graceUntil, paidAccessEnd, renewsAt } from '../core/billing-rules.ts';
import { refusal, type JsonAnswer } from '../core/json-response.ts';
import { isoTime } from '../core/time.ts';
import { findCustomerOfRider, linkCustomer } from '../store/repositories/billing.ts';
import type { Rider } from '../store/repositories/riders.ts';
import type { Database } from '../store/schema.ts';
import { CURRENCIES, PAID_PLAN_IDS, type BillingConfig } from './config.ts';
import type { BillingGateway } from './gateway.ts';

export interface BillingService {
  readonly config: BillingConfig;
  readonly gateway: BillingGateway;
  readonly log?: (line: string) => void;
}

export const CheckoutBodySchema = z.object({
  plan: z.enum(PAID_PLAN_IDS as ['pro_monthly', 'pro_annual', 'pro_lifetime']),
  currency: z.enum(CURRENCIES),
});

/** Where Checkout sends the rider back; Stripe fills in `{CHECKOUT_SESSION_ID}`. */
export const SUCCESS_PATH = '/billing/success';
export const CANCEL_PATH = '/billing/cancel';

/**
 * Two clicks on Buy (or two tabs) within this many seconds get the same
 * Checkout Session: the idempotency key holds the rider, plan, currency and
 * this window, and Stripe answers a repeated key with the first session.
 */
export const CHECKOUT_DEDUPE_S = 600;

const NOT_CONFIGURED = refusal(
  'payments_not_configured',
  'Payments are not set up on this deployment. New accounts get the Pro trial.',
);

/** Starts a Checkout for the signed-in rider; the reply's `url` is Stripe's payment page. */
export async function startCheckout(
  billing: BillingService | undefined,
  db: Kysely<Database>,
  rider: Rider,
  body: unknown,
  origin: string,
  nowS: number,
): Promise<JsonAnswer> {
  if (!billing) return NOT_CONFIGURED;
  const parsed = CheckoutBodySchema.safeParse(body);
  if (!parsed.success) {
    return refusal(
      'invalid_request',
      `Send {"plan": one of ${PAID_PLAN_IDS.join(', ')}, "currency": one of ${CURRENCIES.join(', ')}}.`,
    );
  }
  const { plan, currency } = parsed.data;
  if (hasPaidAccess(rider.paid, nowS)) {
    return refusal(
      'already_paid',
      'This account already has a paid Pro plan. Change or cancel it from Manage billing on the settings page.',
    );
  }
  const log = billing.log ?? ((line: string) => console.log(line));
  let customer = await findCustomerOfRider(db, rider.id);
  if (!customer) {
    const customerId = await billing.gateway.createCustomer(
      { riderId: rider.id, email: rider.email },
      `wos-customer-${rider.id}`,
    );
    customer = await linkCustomer(db, rider.id, customerId);
    if (!customer) return refusal('account_not_found', 'This rider account no longer exists.');
  }
  const window = Math.floor(nowS / CHECKOUT_DEDUPE_S);
  const session = await billing.gateway.createCheckout(
    {
      customerId: customer.customerId,
      riderId: rider.id,
      planId: plan,
      priceId: billing.config.prices[plan][currency],
      mode: plan === 'pro_lifetime' ? 'payment' : 'subscription',
      successUrl: `${origin}${SUCCESS_PATH}?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}${CANCEL_PATH}?plan=${plan}&currency=${currency}`,
    },
    `wos-checkout-${rider.id}-${plan}-${currency}-${window}`,
  );
  log(`billing checkout ${session.id} rider ${rider.id}: ${plan} in ${currency}`);
  return { status: 200, body: { url: session.url } };
}

/** A customer portal session for the rider, who must have paid (or tried to) before. */
export async function openPortal(
  billing: BillingService | undefined,
  db: Kysely<Database>,
  riderId: string,
  origin: string,
): Promise<JsonAnswer> {
  if (!billing) return NOT_CONFIGURED;
  const customer = await findCustomerOfRider(db, riderId);
  if (!customer) {
    return refusal('no_billing_account', 'No payment yet: pick a plan on the pricing page first.');
  }
  return {
    status: 200,
    body: { url: await billing.gateway.createPortal(customer.customerId, `${origin}/settings`) },
  };
}

const iso = (seconds: number | null): string | null => (seconds === null ? null : isoTime(seconds));

/** The billing part of `GET /api/rider/me`: the paid plan, its dates and the last payment. */
export async function billingSummary(
  billing: BillingService | undefined,
  db: Kysely<Database>,
  rider: Rider,
  nowS: number,
) {
  const customer = await findCustomerOfRider(db, rider.id);
  const paid = rider.paid;
  const end = paid ? paidAccessEnd(paid) : null;
  return {
    payments_enabled: billing !== undefined,
    has_customer: customer !== undefined,
    plan_id: paid?.planId ?? null,
    status: paid?.status ?? null,
    active: hasPaidAccess(paid, nowS),
    renews_at: iso(paid ? renewsAt(paid) : null),
    ends_at: paid?.cancelAtPeriodEnd ? iso(paid.periodEnd) : null,
    access_until: end === 'forever' ? 'forever' : iso(end),
    grace_until: iso(paid ? graceUntil(paid) : null),
    last_payment: customer?.lastPayment
      ? {
          at: isoTime(customer.lastPayment.at),
          amount_minor: customer.lastPayment.amount,
          currency: customer.lastPayment.currency,
        }
      : null,
  };
}
