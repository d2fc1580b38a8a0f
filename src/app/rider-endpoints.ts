/**
 * The rider side's HTTP paths as one handler: payments (`/api/billing/*`,
 * `src/billing`), the settings page's JSON (`/api/rider/*`, `src/account`)
 * and the authorization server (the sign-in paths, `src/auth`), each chosen
 * by the path table (`paths.ts`). The three are peer surfaces that never
 * import each other, so they meet here, where the settings API also gets its
 * session check and payments.
 */
import {
  riderApi,
  type AccountChannels,
  type AccountPayments,
  type RiderApiContext,
} from '../account/account-api.ts';
import type { Mailer } from '../data/mail/mailer.ts';
import { vapidKeys } from '../rider/push-keys.ts';
import { accountErasure } from './account-erasure.ts';
import { asContract, type PathHandler } from '../auth/auth-endpoints.ts';
import { createAuthService, type AuthService } from '../auth/auth-service.ts';
import { authConfigFor } from '../auth/secret.ts';
import type { Redis } from 'ioredis';
import type { McpConfig } from '../mcp/endpoint-guard.ts';
import type { Store } from '../store/database.ts';
import { storeConfigOf, type Settings } from './settings.ts';
import { sharedSignInLimits } from './shared-limits.ts';
import { answerResponse, refusal } from '../http/json-answer.ts';
import { billingSummary, openPortal, startCheckout, type BillingService } from '../billing/checkout.ts';
import { billingEndpoints } from '../billing/billing-endpoints.ts';
import { forSignIn } from '../http/client-address.ts';
import { checkWebhookUrl } from '../rider/webhook-url.ts';
import { partOf } from './paths.ts';

export interface RiderEndpointsOptions extends Pick<RiderApiContext, 'catalog' | 'docsUrl'> {
  readonly auth: AuthService;
  /** Stripe, when payments are configured. */
  readonly billing: BillingService | undefined;
  /** The webhook target rule; the production one ({@link checkWebhookUrl}) unless a test's receiver needs its own. */
  readonly checkTarget?: RiderApiContext['checkTarget'];
  /** The channels' port; by default the VAPID key from the store and no mailer. */
  readonly channels?: AccountChannels;
}

/** The settings page's payments: `src/billing/checkout.ts` with this deployment's Stripe (or none). */
export function accountPayments(billing: BillingService | undefined): AccountPayments {
  return {
    summary: (db, rider, now) => billingSummary(billing, db, rider, now),
    checkout: (db, rider, body, origin, now) => startCheckout(billing, db, rider, body, origin, now),
    portal: (db, riderId, origin) => openPortal(billing, db, riderId, origin),
  };
}

/** The sign-in, settings and billing paths; anything else the table sends here gets undefined (a 404). */
export function createRiderEndpoints(options: RiderEndpointsOptions): PathHandler {
  const { auth, billing, catalog, docsUrl } = options;
  const { registry } = auth;
  const { db } = registry.store;
  const payments = accountPayments(billing);
  return async (incoming, client) => {
    const { pathname } = new URL(incoming.url);
    const part = partOf(pathname);
    // Stripe's webhook is signed and comes from Stripe's servers: no origin or session to check.
    if (part === 'billing') {
      const docs = docsUrl ?? `${registry.originOf(incoming) ?? new URL(incoming.url).origin}/docs`;
      return asContract(await billingEndpoints(incoming, { db, billing, docsUrl: docs }));
    }
    if (part === 'sign-in') return auth.endpoints(incoming, client);
    if (part !== 'rider-api') return undefined;
    const origin = registry.originOf(incoming);
    if (!origin) {
      // A host name this site does not serve (DNS rebinding, a typo): a problem, like every settings error.
      const here = new URL(incoming.url);
      return answerResponse(refusal('misdirected_request', `This server does not answer for ${here.host}.`), {
        instance: pathname,
        docsUrl: docsUrl ?? `${here.origin}/docs`,
      });
    }
    const { getSession } = registry.authFor(origin).api;
    // The session check is better-auth's, which reads the caller's address from a header.
    const request = forSignIn(incoming, client);
    const context: RiderApiContext = {
      session: (headers) => getSession({ headers }),
      db,
      origin,
      catalog,
      payments,
      docsUrl,
      checkTarget: options.checkTarget ?? ((url) => checkWebhookUrl(url)),
      channels: options.channels ?? {
        pushPublicKey: async () => (await vapidKeys(db, Math.floor(Date.now() / 1000))).publicKey,
      },
    };
    return asContract(await riderApi(request, context));
  };
}

/** The authorization server over the store, and every rider path with it; Stripe loads only with payments on. */
export async function openRiderEndpoints(
  settings: Settings,
  store: Store,
  { allowedHosts }: McpConfig,
  redis: Redis | undefined,
  catalog: RiderEndpointsOptions['catalog'],
  mail: Mailer,
): Promise<{ readonly auth: AuthService; readonly endpoints: PathHandler }> {
  const { authSecret: secret, onVercel, siteOrigin, billing: config } = settings;
  const authConfig = authConfigFor({ secret, onVercel, siteOrigin, allowedHosts }, storeConfigOf(settings));
  const gateway = config && (await import('../billing/stripe-gateway.ts')).createStripeGateway(config);
  const billing = config && gateway ? { config, gateway } : undefined;
  const account = { mail, beforeDelete: accountErasure(billing, store) };
  const auth = createAuthService({
    store,
    config: authConfig,
    account,
    ...(await sharedSignInLimits(redis)),
  });
  const channels: AccountChannels = {
    mail: mail.kind,
    pushPublicKey: async () => (await vapidKeys(store.db, Math.floor(Date.now() / 1000))).publicKey,
  };
  const endpoints = createRiderEndpoints({
    auth,
    catalog,
    billing,
    channels,
    docsUrl: settings.urls.docsUrl,
  });
  return { auth, endpoints };
}
