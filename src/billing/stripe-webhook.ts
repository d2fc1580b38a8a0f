/**
 * `POST /api/billing/webhook`: Stripe's events move the rider's paid plan.
 *
 * - The signature is checked by the library (`Stripe-Signature`, the
 *   endpoint's secret, 5 minutes of tolerance) before anything is read.
 * - Idempotent by event id: the event is logged in `billing_event` in the
 *   same transaction as the change it makes, so a replay, or Stripe's own
 *   re-delivery, finds the id and changes nothing.
 * - Order does not matter: an event only says which subscription changed;
 *   the handler re-reads that subscription from Stripe and stores it as it
 *   is now, so an old event arriving late writes the current state, never
 *   an older one.
 * - The rider is the one Stripe's customer is linked to (`billing_customer`,
 *   written when this service created the customer), never an id inside the
 *   event alone: a checkout whose `client_reference_id` names another rider
 *   than its customer's, an unknown customer (a deleted rider's) or a price
 *   not in the configuration changes no one, and is logged.
 *
 * Answers: 400 for a missing or bad signature or an unreadable event (Stripe
 * shows it as failed), 200 for every event handled, ignored or refused (a
 * retry would not change the verdict), 503 when Stripe could not be asked
 * (nothing is stored, so Stripe's retry will redo it).
 */
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';

import type { PaidStatus } from '../core/billing-rules.ts';
import { PAID_STATUSES } from '../core/billing-rules.ts';
import { refusal, type JsonAnswer } from '../http/json-answer.ts';
import {
  eventSeen,
  findCustomerById,
  findPaidPlan,
  logEvent,
  recordPayment,
  savePaidPlan,
  type StoredPaidPlan,
} from '../store/repositories/billing.ts';
import { nowSeconds } from '../store/clock.ts';
import type { Database } from '../store/schema.ts';
import { planOfPrice, type BillingConfig } from './config.ts';
import type { BillingGateway, SubscriptionFacts } from './gateway.ts';
import {
  ChargeSchema,
  CheckoutSessionSchema,
  DisputeSchema,
  InvoiceSchema,
  invoiceSubscription,
  StripeEventSchema,
  type StripeEvent,
} from './stripe-objects.ts';

export interface BillingDeps {
  readonly db: Kysely<Database>;
  readonly gateway: BillingGateway;
  readonly config: Pick<BillingConfig, 'prices'>;
  /** One line per event and per refusal; `console.log` unless a test listens. */
  readonly log?: (line: string) => void;
}

type Db = Kysely<Database> | Transaction<Database>;

/** What an event comes to: who it is about, a line for the log, and the change to make (if any). */
interface Verdict {
  readonly riderId: string | null;
  readonly outcome: string;
  readonly apply?: (trx: Db) => Promise<void>;
}

const verdict = (riderId: string | null, outcome: string, apply?: Verdict['apply']): Verdict =>
  apply ? { riderId, outcome, apply } : { riderId, outcome };

function statusOf(stripeStatus: string): PaidStatus {
  return (PAID_STATUSES as readonly string[]).includes(stripeStatus) && stripeStatus !== 'lifetime'
    ? (stripeStatus as PaidStatus)
    : 'incomplete';
}

function hasAccessNow(plan: StoredPaidPlan | undefined): boolean {
  return plan !== undefined && ['active', 'trialing', 'past_due', 'lifetime'].includes(plan.status);
}

/**
 * The subscription as Stripe has it now, stored as the rider's plan. A
 * lifetime plan is never replaced by a subscription, and an old
 * subscription's late news (it ended) does not replace a newer one that
 * still runs.
 */
function syncSubscription(
  deps: BillingDeps,
  riderId: string,
  sub: SubscriptionFacts,
  existing: StoredPaidPlan | undefined,
  options: { readonly clearDispute?: boolean } = {},
): Verdict {
  const priced = sub.priceId === null ? undefined : planOfPrice(deps.config, sub.priceId);
  if (!priced || priced.planId === 'pro_lifetime') {
    return verdict(
      riderId,
      `refused: subscription ${sub.id} has price ${sub.priceId ?? 'none'}, not a configured plan`,
    );
  }
  if (existing?.status === 'lifetime') return verdict(riderId, `ignored: the rider has Pro Lifetime`);
  if (existing?.status === 'disputed' && !options.clearDispute) {
    return verdict(riderId, 'ignored: a payment is under dispute, Pro stays off until it is closed');
  }
  const status = statusOf(sub.status);
  const next: StoredPaidPlan = {
    planId: priced.planId,
    status,
    stripeRef: sub.id,
    periodStart: sub.periodStart,
    periodEnd: sub.periodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
  };
  if (existing && existing.stripeRef !== sub.id && hasAccessNow(existing) && !hasAccessNow(next)) {
    return verdict(
      riderId,
      `ignored: subscription ${sub.id} is ${sub.status}, the rider's current one is ${existing.stripeRef}`,
    );
  }
  return verdict(
    riderId,
    `plan ${priced.planId} ${status}${sub.cancelAtPeriodEnd ? ' (ends at period end)' : ''}`,
    (trx) => savePaidPlan(trx, riderId, next),
  );
}

/** The rider a Stripe customer is linked to, or a verdict saying why there is none. */
async function riderOfCustomer(
  deps: BillingDeps,
  customerId: string | null | undefined,
): Promise<string | Verdict> {
  if (!customerId) return verdict(null, 'ignored: no customer on the event');
  const customer = await findCustomerById(deps.db, customerId);
  return customer
    ? customer.riderId
    : verdict(null, `ignored: customer ${customerId} is no rider's (deleted?)`);
}

async function onCheckoutCompleted(deps: BillingDeps, event: StripeEvent): Promise<Verdict> {
  const session = CheckoutSessionSchema.parse(event.data.object);
  const rider = await riderOfCustomer(deps, session.customer);
  if (typeof rider !== 'string') return rider;
  if (session.client_reference_id !== rider) {
    return verdict(
      rider,
      `refused: checkout ${session.id} names rider ${session.client_reference_id ?? 'none'} but its customer is another rider's`,
    );
  }
  const existing = await findPaidPlan(deps.db, rider);
  if (session.mode === 'subscription') {
    if (!session.subscription) return verdict(rider, `refused: checkout ${session.id} has no subscription`);
    return syncSubscription(deps, rider, await deps.gateway.subscription(session.subscription), existing);
  }
  if (session.mode !== 'payment') return verdict(rider, `ignored: checkout mode ${session.mode}`);
  if (session.payment_status !== 'paid')
    return verdict(rider, `ignored: checkout ${session.id} not paid yet`);
  const prices = await deps.gateway.checkoutPrices(session.id);
  const plans = prices.map((price) => planOfPrice(deps.config, price));
  if (plans.length !== 1 || plans[0]?.planId !== 'pro_lifetime') {
    return verdict(
      rider,
      `refused: checkout ${session.id} charged ${prices.join(', ') || 'no price'}, not Pro Lifetime`,
    );
  }
  const paymentIntent = session.payment_intent ?? session.id;
  const amount = session.amount_total;
  const currency = session.currency;
  return verdict(rider, 'plan pro_lifetime: Pro for good', async (trx) => {
    await savePaidPlan(trx, rider, {
      planId: 'pro_lifetime',
      status: 'lifetime',
      stripeRef: paymentIntent,
      periodStart: null,
      periodEnd: null,
      cancelAtPeriodEnd: false,
    });
    if (amount !== null && amount !== undefined && currency) {
      await recordPayment(trx, rider, { at: session.created, amount, currency });
    }
  });
}

async function onSubscriptionChanged(deps: BillingDeps, event: StripeEvent): Promise<Verdict> {
  const object = event.data.object;
  const subId = typeof object['id'] === 'string' ? object['id'] : undefined;
  const customer = typeof object['customer'] === 'string' ? object['customer'] : undefined;
  if (!subId) return verdict(null, 'refused: subscription event without an id');
  const rider = await riderOfCustomer(deps, customer);
  if (typeof rider !== 'string') return rider;
  const sub = await deps.gateway.subscription(subId);
  if (sub.customerId !== customer)
    return verdict(rider, `refused: subscription ${subId} belongs to another customer`);
  return syncSubscription(deps, rider, sub, await findPaidPlan(deps.db, rider));
}

async function onInvoice(deps: BillingDeps, event: StripeEvent, paid: boolean): Promise<Verdict> {
  const invoice = InvoiceSchema.parse(event.data.object);
  const rider = await riderOfCustomer(deps, invoice.customer);
  if (typeof rider !== 'string') return rider;
  const subId = invoiceSubscription(invoice);
  const synced = subId
    ? syncSubscription(
        deps,
        rider,
        await deps.gateway.subscription(subId),
        await findPaidPlan(deps.db, rider),
      )
    : verdict(rider, 'no subscription');
  if (!paid || invoice.amount_paid <= 0) return synced;
  const payment = {
    at: invoice.status_transitions?.paid_at ?? invoice.created,
    amount: invoice.amount_paid,
    currency: invoice.currency,
  };
  return verdict(rider, `${synced.outcome}; payment recorded`, async (trx) => {
    await synced.apply?.(trx);
    await recordPayment(trx, rider, payment);
  });
}

/** A full refund of the lifetime payment ends Pro at once; a refunded subscription invoice changes nothing. */
async function onRefund(deps: BillingDeps, event: StripeEvent): Promise<Verdict> {
  const charge = ChargeSchema.parse(event.data.object);
  const rider = await riderOfCustomer(deps, charge.customer);
  if (typeof rider !== 'string') return rider;
  const plan = await findPaidPlan(deps.db, rider);
  if (!charge.refunded) return verdict(rider, 'ignored: partial refund, plan unchanged');
  if (plan?.status !== 'lifetime' || plan.stripeRef !== charge.payment_intent) {
    return verdict(rider, 'ignored: refund of a subscription payment, plan unchanged');
  }
  return verdict(rider, 'plan pro_lifetime refunded: Pro ends now', (trx) =>
    savePaidPlan(trx, rider, { ...plan, status: 'refunded' }),
  );
}

/** A dispute suspends Pro at once; won, the plan comes back as Stripe has it; lost, it stays off. */
async function onDispute(deps: BillingDeps, event: StripeEvent): Promise<Verdict> {
  const dispute = DisputeSchema.parse(event.data.object);
  const rider = await riderOfCustomer(deps, await deps.gateway.chargeCustomer(dispute.charge));
  if (typeof rider !== 'string') return rider;
  const plan = await findPaidPlan(deps.db, rider);
  if (!plan) return verdict(rider, 'ignored: the rider has no paid plan');
  if (event.type === 'charge.dispute.created') {
    return verdict(rider, `dispute ${dispute.id}: Pro suspended`, (trx) =>
      savePaidPlan(trx, rider, { ...plan, status: 'disputed' }),
    );
  }
  if (dispute.status !== 'won' || plan.status !== 'disputed') {
    return verdict(rider, `dispute ${dispute.id} closed ${dispute.status}: plan unchanged`);
  }
  if (plan.planId === 'pro_lifetime') {
    return verdict(rider, `dispute ${dispute.id} won: Pro Lifetime back`, (trx) =>
      savePaidPlan(trx, rider, { ...plan, status: 'lifetime' }),
    );
  }
  const sub = await deps.gateway.subscription(plan.stripeRef);
  return syncSubscription(deps, rider, sub, plan, { clearDispute: true });
}

const HANDLERS: Readonly<Record<string, (deps: BillingDeps, event: StripeEvent) => Promise<Verdict>>> = {
  'checkout.session.completed': onCheckoutCompleted,
  'checkout.session.async_payment_succeeded': onCheckoutCompleted,
  'customer.subscription.created': onSubscriptionChanged,
  'customer.subscription.updated': onSubscriptionChanged,
  'customer.subscription.deleted': onSubscriptionChanged,
  'customer.subscription.paused': onSubscriptionChanged,
  'customer.subscription.resumed': onSubscriptionChanged,
  'invoice.paid': (deps, event) => onInvoice(deps, event, true),
  'invoice.payment_failed': (deps, event) => onInvoice(deps, event, false),
  'charge.refunded': onRefund,
  'charge.dispute.created': onDispute,
  'charge.dispute.closed': onDispute,
};

/** The event types to subscribe the webhook endpoint to (docs/operating.md, "Payments (Stripe)"). */
export const HANDLED_EVENT_TYPES: readonly string[] = Object.keys(HANDLERS);

/** The first line of an error: the library's signature errors go on for a paragraph. */
function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n', 1)[0] ?? '';
}

/** Verifies, de-duplicates and applies one webhook delivery (a POST: `billing-endpoints.ts` checks the method). */
export async function handleBillingWebhook(request: Request, deps: BillingDeps): Promise<JsonAnswer> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const signature = request.headers.get('stripe-signature');
  if (!signature) {
    log('billing webhook refused: no Stripe-Signature header');
    return refusal('invalid_signature', 'Stripe-Signature header missing.');
  }
  const payload = new Uint8Array(await request.arrayBuffer());
  let event: StripeEvent;
  try {
    event = StripeEventSchema.parse(deps.gateway.verifyEvent(payload, signature));
  } catch (error) {
    log(`billing webhook refused: ${describe(error)}`);
    return refusal('invalid_signature', 'The signature does not verify.');
  }
  if (await eventSeen(deps.db, event.id)) {
    log(`billing webhook ${event.id} ${event.type}: already handled, replay ignored`);
    return { status: 200, body: { received: true, duplicate: true } };
  }
  const handler = HANDLERS[event.type];
  let result: Verdict;
  try {
    result = handler ? await handler(deps, event) : verdict(null, 'ignored: event type not used');
  } catch (error) {
    if (error instanceof z.ZodError) {
      result = verdict(null, `refused: unreadable ${event.type} object`);
    } else {
      log(
        `billing webhook ${event.id} ${event.type}: Stripe could not be asked (${describe(error)}); will be retried`,
      );
      return refusal('temporarily_unavailable', 'Stripe could not be asked about this event.');
    }
  }
  const fresh = await deps.db.transaction().execute(async (trx) => {
    const logged = await logEvent(
      trx,
      {
        id: event.id,
        type: event.type,
        created: event.created,
        riderId: result.riderId,
        outcome: result.outcome,
      },
      nowSeconds(),
    );
    if (logged) await result.apply?.(trx);
    return logged;
  });
  log(
    fresh
      ? `billing webhook ${event.id} ${event.type}${result.riderId ? ` rider ${result.riderId}` : ''}: ${result.outcome}`
      : `billing webhook ${event.id} ${event.type}: already handled, replay ignored`,
  );
  return {
    status: 200,
    body: { received: true, ...(fresh ? { outcome: result.outcome } : { duplicate: true }) },
  };
}
