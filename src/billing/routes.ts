/**
 * The public billing paths: `GET /api/billing/status` (whether this
 * deployment takes payments: the pricing page asks before showing a Buy
 * button) and the Stripe webhook. The rider's own paths (checkout, portal)
 * sit behind the session in `src/account/account-api.ts`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { BillingService } from './checkout.ts';
import { CURRENCIES, PAID_PLAN_IDS } from './config.ts';
import { BILLING_WEBHOOK_PATH, handleBillingWebhook } from './stripe-webhook.ts';

export const BILLING_PREFIX = '/api/billing/';
export const BILLING_STATUS_PATH = '/api/billing/status';

export function isBillingPath(pathname: string): boolean {
  return pathname.startsWith(BILLING_PREFIX);
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...extra } });
}

export async function billingRoutes(
  request: Request,
  context: { readonly db: Kysely<Database>; readonly billing: BillingService | undefined },
): Promise<Response> {
  const { pathname } = new URL(request.url);
  const { billing, db } = context;
  if (pathname === BILLING_STATUS_PATH) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return json(405, { error: 'method_not_allowed' }, { Allow: 'GET, HEAD' });
    }
    return json(200, {
      payments_enabled: billing !== undefined,
      plans: billing ? PAID_PLAN_IDS : [],
      currencies: billing ? CURRENCIES : [],
    });
  }
  if (pathname === BILLING_WEBHOOK_PATH) {
    if (!billing) {
      console.log('billing webhook refused: payments are not configured (no STRIPE_* variables)');
      return json(404, { error: 'payments_not_configured' });
    }
    return handleBillingWebhook(request, {
      db,
      gateway: billing.gateway,
      config: billing.config,
      ...(billing.log ? { log: billing.log } : {}),
    });
  }
  return json(404, { error: 'not_found' });
}
