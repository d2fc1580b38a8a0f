/**
 * The billing paths and the webhook's body limit, apart from the handlers so
 * the path table in `src/app/paths.ts` names them without compiling Stripe's
 * event schemas into every function.
 */

/** Every billing path lies below this one. */
export const BILLING_BASE = '/api/billing';
export const BILLING_STATUS_PATH = '/api/billing/status';
export const BILLING_WEBHOOK_PATH = '/api/billing/webhook';

/** Stripe's events are a few KB; the largest (an invoice with many lines) stays well under this. */
export const BILLING_WEBHOOK_MAX_BYTES = 256 * 1024;
