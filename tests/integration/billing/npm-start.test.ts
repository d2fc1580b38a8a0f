/**
 * Issue #14, "done when", on `npm start` itself (settings from the
 * environment, the Node listener's raw body, the real composition root)
 * with the Stripe test double: a rider on Free buys Pro Monthly, the
 * assistant's next get_my_watchlist shows Pro with no quota, and after
 * cancelling in the portal it shows when Pro ends. (Free from that second
 * on needs a moved clock: tests/billing/flow.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  doubleEnvironment,
  doublePrices,
  DOUBLE_WEBHOOK_SECRET,
} from '../../../scripts/billing/double-prices.ts';
import { startStripeDouble, type StripeDouble } from '../../../scripts/billing/stripe-double.ts';
import { FREE_MONTHLY_CALLS } from '../../../src/core/rider-rules.ts';
import { isoTime } from '../../../src/core/time.ts';
import { openStore } from '../../../src/store/database.ts';
import { findPaidPlan } from '../../../src/store/repositories/billing.ts';
import { setRiderTrial } from '../../../src/store/repositories/riders.ts';
import { metadataOf, registerClient, signedUp, tokensFor } from '../../auth/support/grants.ts';
import type { Agent } from '../../auth/support/oauth.ts';
import { startService, type RunningService } from '../../support/service.ts';
import { watchlist } from '../../billing/support.ts';

const RIDER = { email: 'buyer@example.org', password: 'buyer on npm start' };
const REDIRECT = 'http://127.0.0.1:9/callback';
const database = join(mkdtempSync(join(tmpdir(), 'wos-billing-e2e-')), 'store.sqlite');
let double: StripeDouble;
let service: RunningService;
let agent: Agent;
let riderId: string;
let mcp: Client;

async function readStore<T>(read: (store: ReturnType<typeof openStore>) => Promise<T>): Promise<T> {
  const store = openStore({ engine: 'sqlite', path: database });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  double = await startStripeDouble({ webhookSecret: DOUBLE_WEBHOOK_SECRET, prices: doublePrices() });
  service = await startService({
    ...doubleEnvironment(double.origin),
    WOS_DATABASE_PATH: database,
    WOS_ALERTS_INTERVAL_MS: '0',
  });
  double.setWebhookUrl(`${service.baseUrl}/api/billing/webhook`);
  agent = await signedUp(service.baseUrl, RIDER);
  riderId = ((await (await agent.fetch('/api/rider/me')).json()) as { rider: { id: string } }).rider.id;
  // The trial is over: the rider is on Free.
  await readStore((store) => setRiderTrial(store.db, riderId, null));
  const metadata = await metadataOf(service.baseUrl);
  const clientId = await registerClient(metadata, REDIRECT, 'Billing e2e assistant');
  const tokens = await tokensFor(agent, metadata, RIDER, { clientId, redirectUri: REDIRECT });
  mcp = new Client({ name: 'billing-e2e', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp/rider`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
}, 240_000);
afterAll(async () => {
  await mcp?.close();
  await service?.stop();
  await double?.close();
});

describe('buying Pro on npm start', () => {
  it('Free → Pro Monthly with no quota → cancelled, with its end date', async () => {
    const before = await watchlist(mcp);
    expect(before.access.plan).toBe('free');
    expect(before.usage.limit).toBe(FREE_MONTHLY_CALLS);

    const checkout = await agent.postJson('/api/rider/billing/checkout', {
      plan: 'pro_monthly',
      currency: 'eur',
    });
    expect(checkout.status).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.headers.get('location')).toMatch(/\/billing\/success\?session_id=cs_test_/);
    expect(double.sent.map((s) => s.status)).toEqual(double.sent.map(() => 200));

    const pro = await watchlist(mcp);
    expect(pro.access).toMatchObject({ plan: 'pro', paid_plan: 'pro_monthly', pro_until: null });
    expect(pro.usage.limit).toBeNull();

    const portal = await agent.postJson('/api/rider/billing/portal', {});
    const cancelled = await fetch(`${((await portal.json()) as { url: string }).url}/cancel`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(cancelled.headers.get('location')).toBe(`${service.baseUrl}/settings`);
    const periodEnd = (await readStore((store) => findPaidPlan(store.db, riderId)))?.periodEnd ?? 0;
    expect((await watchlist(mcp)).access).toMatchObject({
      plan: 'pro',
      renews_at: null,
      pro_until: isoTime(periodEnd),
    });
  });

  it('refuses a forged webhook with 400', async () => {
    const response = await fetch(`${service.baseUrl}/api/billing/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{"id":"evt_forged","type":"invoice.paid"}',
    });
    expect(response.status).toBe(400);
  });
});
