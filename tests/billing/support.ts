/**
 * The payment tests' world: a migrated store, the Stripe test double, and
 * the auth server (settings API, billing paths, real `/mcp/rider`) with the
 * real Stripe adapter pointed at the double. The rider tools run on a clock
 * the test moves; Stripe's signatures use the real one (their 5-minute
 * tolerance is checked against it).
 */
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as McpClient } from '@modelcontextprotocol/client';
import type { BillingService } from '../../src/billing/checkout.ts';
import { createStripeGateway } from '../../src/billing/stripe-gateway.ts';
import type { Store } from '../../src/store/database.ts';
import type { Mailer } from '../../src/data/mail/mailer.ts';
import { setRiderTrial } from '../../src/store/repositories/riders.ts';
import {
  doubleBillingConfig,
  doublePrices,
  DOUBLE_WEBHOOK_SECRET,
} from '../../scripts/billing/double-prices.ts';
import { startStripeDouble, type StripeDouble } from '../../scripts/billing/stripe-double.ts';
import { metadataOf, registerClient, signedUp, tokensFor, type Rider } from '../auth/support/grants.ts';
import type { Agent, Tokens } from '../auth/support/oauth.ts';
import type { PageHandler } from '../auth/support/pages.ts';
import {
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from '../auth/support/server.ts';
import { testDeps } from '../support/mcp-deps.ts';

export interface BillingWorld {
  readonly server: AuthServer;
  readonly double: StripeDouble;
  readonly billing: BillingService;
  readonly log: string[];
  /** The rider tools' clock, unix ms; starts at the real time. */
  clock: number;
  /** A signed-up rider whose trial is over (Free), with an MCP client at /mcp/rider. */
  freeRider(rider: Rider): Promise<{ agent: Agent; id: string; mcp: Client; tokens: Tokens }>;
  close(): Promise<void>;
}

export interface BillingWorldOptions {
  /** The site's pages (for the browser test). */
  readonly pages?: PageHandler;
  /** The verification and reset mails' way out (a test SMTP server). */
  readonly mail?: Mailer;
  /** Per-address sign-in limits on (better-auth's own rules, counted in memory). */
  readonly rateLimit?: boolean;
}

export async function startBillingWorld(
  store: Store,
  options: BillingWorldOptions = {},
): Promise<BillingWorld> {
  const double = await startStripeDouble({ webhookSecret: DOUBLE_WEBHOOK_SECRET, prices: doublePrices() });
  const config = doubleBillingConfig(double.origin);
  const log: string[] = [];
  const billing: BillingService = {
    config,
    gateway: createStripeGateway(config),
    log: (line) => log.push(line),
  };
  const world = { clock: Date.now() } as { clock: number };
  const server = await startAuthServer({
    store,
    billing,
    mcp: testDeps({ now: () => world.clock }),
    ...(options.pages ? { pages: options.pages } : {}),
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  double.setWebhookUrl(`${server.origin}/api/billing/webhook`);
  const callback: CallbackServer = await startCallbackServer();
  const metadata = await metadataOf(server.origin);
  const clients: Client[] = [];

  return Object.assign(world, {
    server,
    double,
    billing,
    log,
    async freeRider(rider: Rider) {
      const agent = await signedUp(server.origin, rider);
      const me = (await (await agent.fetch('/api/rider/me')).json()) as { rider: { id: string } };
      await setRiderTrial(store.db, me.rider.id, null);
      const clientId = await registerClient(metadata, callback.redirectUri, 'billing test assistant');
      const tokens = await tokensFor(agent, metadata, rider, { clientId, redirectUri: callback.redirectUri });
      const mcp = new McpClient({ name: 'billing-tests', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp/rider`), {
        requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
      });
      await mcp.connect(transport);
      clients.push(mcp);
      return { agent, id: me.rider.id, mcp, tokens };
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all([server.close(), callback.close(), double.close()]);
    },
  });
}

/** `get_my_watchlist`'s structured answer. */
export async function watchlist(mcp: Client): Promise<{
  access: {
    plan: string;
    pro_access: boolean;
    paid_plan: string | null;
    renews_at: string | null;
    pro_until: string | null;
  };
  usage: { limit: number | null };
}> {
  const result = await mcp.callTool({ name: 'get_my_watchlist', arguments: {} });
  return result.structuredContent as never;
}
