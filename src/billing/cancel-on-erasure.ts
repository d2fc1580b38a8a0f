/**
 * Before a rider's account is deleted: a subscription still running at
 * Stripe is cancelled at once, so no further charge follows the deletion.
 * Stripe keeps the customer, its invoices and payments (the law asks for
 * invoices to be kept); nothing of ours keeps the link to them once the
 * account is erased. A lifetime plan has nothing to cancel. When Stripe
 * cannot be reached, or payments are switched off on a deployment that still
 * has a running subscription, this throws and the account stays whole: a
 * deletion that left a subscription charging would be worse than none.
 */
import type { Kysely } from 'kysely';
import { findPaidPlan } from '../store/repositories/billing.ts';
import type { Database } from '../store/schema.ts';
import type { BillingService } from './checkout.ts';

/** Stripe statuses of a subscription that can still charge. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** Why a deletion was refused, in words for the rider. */
export class CancellationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CancellationError';
  }
}

/** Cancels the rider's running subscription, if any; returns its id, or null when there was none. */
export async function cancelBeforeErasure(
  billing: BillingService | undefined,
  db: Kysely<Database>,
  riderId: string,
): Promise<string | null> {
  const plan = await findPaidPlan(db, riderId);
  if (!plan || !plan.stripeRef.startsWith('sub_') || ENDED.has(plan.status)) return null;
  if (!billing) {
    throw new CancellationError(
      'Your subscription could not be cancelled: payments are switched off on this deployment. Nothing was deleted; contact the operator.',
    );
  }
  try {
    const facts = await billing.gateway.cancelSubscription(
      plan.stripeRef,
      `erase-${riderId}-${plan.stripeRef}`,
    );
    if (!ENDED.has(facts.status)) throw new Error(`Stripe answered status ${facts.status}`);
    return plan.stripeRef;
  } catch (error) {
    console.error(
      `account deletion: subscription ${plan.stripeRef} not cancelled:`,
      error instanceof Error ? error.message : error,
    );
    throw new CancellationError(
      'Your subscription could not be cancelled because the payment provider did not answer. Nothing was deleted; try again in a moment.',
      { cause: error },
    );
  }
}
