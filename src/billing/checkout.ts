/**
 * The rider's side of payments, behind the settings API's session check
 * (`src/account/account-api.ts`): start a Checkout for a plan and currency, open
 * the customer portal, and the billing part of `GET /api/rider/me`.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { hasPaidAccess, graceUntil, paidAccessEnd, renewsAt } from '../core/billing-rules.ts';
import { refusal, type JsonAnswer } from '../http/json-answer.ts';
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
 * An open session that expires sooner than this is not handed out again:
 * the rider would reach Stripe's "no longer active" page mid-payment.
 */
const REUSE_MIN_LEFT_S = 600;

/**
 * One Checkout Session per attempt to buy. While the rider has an open
 * session for this plan and currency, Buy answers it again (a return from
 * Stripe's Back link, a second tab). Otherwise the idempotency key names the
 * attempt by the state it starts from: the customer's newest session (or
 * none). A double click reads the same state, so both clicks send the same
 * key and Stripe answers both with one session; once that session completes
 * (and is perhaps refunded) or expires, a new click starts from it, so the
 * key is new and so is the session. A key made of a time window instead
 * replayed a completed or expired session for the rest of the window:
 * Stripe's "This Checkout Session is no longer active".
 */
async function checkoutAttempt(
  gateway: BillingGateway,
  customerId: string,
  want: { riderId: string; plan: string; currency: string },
  nowS: number,
): Promise<{ url: string } | { key: string }> {
  const recent = await gateway.recentCheckouts(customerId);
  const open = recent.find(
    (s) =>
      s.status === 'open' &&
      s.url !== null &&
      s.planId === want.plan &&
      s.currency === want.currency &&
      (s.expiresAt === null || s.expiresAt - nowS > REUSE_MIN_LEFT_S),
  );
  if (open?.url) return { url: open.url };
  const after = recent[0]?.id ?? 'none';
  return { key: `wos-checkout-${want.riderId}-${want.plan}-${want.currency}-after-${after}` };
}

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
  const attempt = await checkoutAttempt(
    billing.gateway,
    customer.customerId,
    { riderId: rider.id, plan, currency },
    nowS,
  );
  if ('url' in attempt) {
    log(`billing checkout rider ${rider.id}: ${plan} in ${currency}, the open session again`);
    return { status: 200, body: { url: attempt.url } };
  }
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
    attempt.key,
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
