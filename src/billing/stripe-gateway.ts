/**
 * The billing gateway on Stripe's official library. `STRIPE_API_BASE` points
 * it at another host (the local test double); the library then speaks the
 * same form-encoded requests to it as to api.stripe.com.
 */
import Stripe from 'stripe';
import type { BillingConfig } from './config.ts';
import type { BillingGateway, SubscriptionFacts } from './gateway.ts';
import { CheckoutAttemptSchema, SubscriptionSchema } from './stripe-objects.ts';

/** Sessions read to find an open attempt: a rider rarely has more than a couple. */
const RECENT_CHECKOUTS = 10;

/** Stripe answers in well under a second; a hung call must not hold the rider's click for long. */
const STRIPE_TIMEOUT_MS = 10_000;

function clientFor(config: BillingConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: STRIPE_TIMEOUT_MS,
    ...(base
      ? {
          host: base.hostname,
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          ...(base.port ? { port: Number(base.port) } : {}),
        }
      : {}),
  });
}

/** Reads the period from the subscription's first item (API 2025-03-31 and later) or the subscription. */
export function subscriptionFacts(object: unknown): SubscriptionFacts {
  const sub = SubscriptionSchema.parse(object);
  const item = sub.items.data[0];
  return {
    id: sub.id,
    customerId: sub.customer,
    status: sub.status,
    priceId: item?.price.id ?? null,
    periodStart: item?.current_period_start ?? sub.current_period_start ?? null,
    periodEnd: item?.current_period_end ?? sub.current_period_end ?? null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

export function createStripeGateway(config: BillingConfig): BillingGateway {
  const stripe = clientFor(config);
  return {
    async createCustomer({ riderId, email }, idempotencyKey) {
      const customer = await stripe.customers.create(
        { email, metadata: { rider_id: riderId } },
        { idempotencyKey },
      );
      return customer.id;
    },
    async createCheckout(input, idempotencyKey) {
      const metadata = { rider_id: input.riderId, plan_id: input.planId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: input.mode,
          customer: input.customerId,
          client_reference_id: input.riderId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata,
          ...(input.mode === 'subscription' ? { subscription_data: { metadata } } : {}),
        },
        { idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { id: session.id, url: session.url };
    },
    async recentCheckouts(customerId) {
      const list = await stripe.checkout.sessions.list({ customer: customerId, limit: RECENT_CHECKOUTS });
      return list.data.map((raw) => {
        const session = CheckoutAttemptSchema.parse(raw);
        return {
          id: session.id,
          status: session.status ?? null,
          url: session.url ?? null,
          planId: session.metadata?.['plan_id'] ?? null,
          currency: session.currency ?? null,
          expiresAt: session.expires_at ?? null,
        };
      });
    },
    async createPortal(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return session.url;
    },
    async cancelSubscription(id, idempotencyKey) {
      return subscriptionFacts(await stripe.subscriptions.cancel(id, {}, { idempotencyKey }));
    },
    async subscription(id) {
      return subscriptionFacts(await stripe.subscriptions.retrieve(id));
    },
    async checkoutPrices(sessionId) {
      const items = await stripe.checkout.sessions.listLineItems(sessionId, { limit: 10 });
      return items.data.flatMap((item) => (item.price ? [item.price.id] : []));
    },
    async chargeCustomer(chargeId) {
      const charge = await stripe.charges.retrieve(chargeId);
      const customer = charge.customer;
      return customer === null ? null : typeof customer === 'string' ? customer : customer.id;
    },
    verifyEvent(payload, signature) {
      return stripe.webhooks.constructEvent(payload, signature, config.webhookSecret);
    },
  };
}
