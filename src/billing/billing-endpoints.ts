/**
 * The public billing paths: `GET /api/billing/status` (whether this
 * deployment takes payments: the pricing page asks before showing a Buy
 * button) and the Stripe webhook. The rider's own paths (checkout, portal)
 * sit behind the session in `src/account/account-api.ts`. Errors are
 * problem documents, like every other JSON answer of the site.
 */
import type { Kysely } from 'kysely';
import { answerResponse, refusal, type JsonAnswer } from '../http/json-answer.ts';
import { ApiError } from '../core/problems.ts';
import type { Database } from '../store/schema.ts';
import type { BillingService } from './checkout.ts';
import { CURRENCIES, PAID_PLAN_IDS } from './config.ts';
import { BILLING_STATUS_PATH, BILLING_WEBHOOK_PATH } from './billing-paths.ts';
import { handleBillingWebhook } from './stripe-webhook.ts';

export interface BillingEndpointsContext {
  readonly db: Kysely<Database>;
  readonly billing: BillingService | undefined;
  /** `{docs_url}` of problem `type` URIs. */
  readonly docsUrl: string;
}

/** The one method each path answers (the status is also read with HEAD). */
const METHODS: Readonly<Record<string, readonly string[]>> = {
  [BILLING_STATUS_PATH]: ['GET', 'HEAD'],
  [BILLING_WEBHOOK_PATH]: ['POST'],
};

export async function billingEndpoints(
  request: Request,
  context: BillingEndpointsContext,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  const target = { instance: pathname, docsUrl: context.docsUrl };
  const methods = METHODS[pathname];
  if (!methods) {
    const hint = `Use GET ${BILLING_STATUS_PATH} or POST ${BILLING_WEBHOOK_PATH}.`;
    return answerResponse(
      refusal('not_found', `No billing endpoint at ${pathname}.`, undefined, hint),
      target,
    );
  }
  if (!methods.includes(request.method)) {
    const allow = methods.join(', ');
    const answer = refusal(
      'method_not_allowed',
      `${pathname} answers ${allow} only.`,
      undefined,
      `Send a ${methods[0]}.`,
    );
    const response = answerResponse(answer, target);
    response.headers.set('Allow', allow);
    return response;
  }
  try {
    return answerResponse(await answer(pathname, request, context), target);
  } catch (error) {
    // A handler may throw its refusal as well as return it: the same problem either way.
    if (error instanceof ApiError) return answerResponse(error, target);
    throw error;
  }
}

async function answer(
  pathname: string,
  request: Request,
  context: BillingEndpointsContext,
): Promise<JsonAnswer> {
  const { billing, db } = context;
  if (pathname === BILLING_STATUS_PATH) {
    return {
      status: 200,
      body: {
        payments_enabled: billing !== undefined,
        plans: billing ? PAID_PLAN_IDS : [],
        currencies: billing ? CURRENCIES : [],
      },
    };
  }
  if (!billing) {
    console.log('billing webhook refused: payments are not configured (no STRIPE_* variables)');
    return refusal(
      'payments_not_configured',
      'This deployment takes no payments: the webhook is not set up.',
    );
  }
  return handleBillingWebhook(request, {
    db,
    gateway: billing.gateway,
    config: billing.config,
    ...(billing.log ? { log: billing.log } : {}),
  });
}
