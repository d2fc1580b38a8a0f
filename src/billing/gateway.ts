/**
 * The few Stripe calls the service makes, behind a small interface: the
 * real adapter (`stripe-gateway.ts`) speaks to Stripe (or to the local test
 * double, `scripts/billing/stripe-double.ts`) through the official library.
 * Everything read from Stripe comes back as these plain facts, checked by
 * the zod schemas in `stripe-objects.ts`.
 */
import type { PaidPlanId } from '../core/billing-rules.ts';

/** A Stripe subscription as far as the plan rule needs it. */
export interface SubscriptionFacts {
  readonly id: string;
  readonly customerId: string;
  /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  readonly status: string;
  /** The price of its (single) item; null when it has none. */
  readonly priceId: string | null;
  readonly periodStart: number | null;
  readonly periodEnd: number | null;
  readonly cancelAtPeriodEnd: boolean;
}

export interface CheckoutRequest {
  readonly customerId: string;
  readonly riderId: string;
  readonly planId: PaidPlanId;
  readonly priceId: string;
  /** `subscription` for the monthly and annual plans, `payment` for lifetime. */
  readonly mode: 'subscription' | 'payment';
  readonly successUrl: string;
  readonly cancelUrl: string;
}

/** A Checkout Session as far as telling one attempt to buy from the next needs it. */
export interface CheckoutFacts {
  readonly id: string;
  /** Stripe's status: `open` until paid (`complete`) or expired (`expired`). */
  readonly status: string | null;
  /** Where the rider pays; Stripe gives it only while the session is open. */
  readonly url: string | null;
  /** The plan our metadata names, the currency Stripe charges in. */
  readonly planId: string | null;
  readonly currency: string | null;
  /** Unix seconds when Stripe expires it, if it says. */
  readonly expiresAt: number | null;
}

export interface BillingGateway {
  /** A new Stripe customer for the rider; the key makes a repeated call return the same one. */
  createCustomer(input: { riderId: string; email: string }, idempotencyKey: string): Promise<string>;
  /** A Checkout Session; its `url` is where the rider pays. */
  createCheckout(input: CheckoutRequest, idempotencyKey: string): Promise<{ id: string; url: string }>;
  /** The customer's latest Checkout Sessions, newest first (a few: enough to find an open one). */
  recentCheckouts(customerId: string): Promise<CheckoutFacts[]>;
  /** A customer portal session; its URL is where the rider changes plan, card or cancels. */
  createPortal(customerId: string, returnUrl: string): Promise<string>;
  /** Cancels a subscription at once (no further charge, no proration); answers it as it is afterwards. */
  cancelSubscription(id: string, idempotencyKey: string): Promise<SubscriptionFacts>;
  /** The subscription as it is now (re-read on every event: see `stripe-webhook.ts`). */
  subscription(id: string): Promise<SubscriptionFacts>;
  /** The price ids a Checkout Session charged for. */
  checkoutPrices(sessionId: string): Promise<string[]>;
  /** Who paid a charge (for disputes, which name only the charge). */
  chargeCustomer(chargeId: string): Promise<string | null>;
  /** Checks the `Stripe-Signature` header and returns the event; throws on a bad or stale signature. */
  verifyEvent(payload: Uint8Array, signature: string): unknown;
}
