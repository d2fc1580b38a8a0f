/**
 * Bad input and abuse at the billing paths: each is refused or handled
 * without changing the wrong account, and leaves a log line.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doubleBillingConfig, DOUBLE_WEBHOOK_SECRET } from '../../scripts/billing/double-prices.ts';
import { createStripeGateway } from '../../src/billing/stripe-gateway.ts';
import { safeReturnPath } from '../../src/components/billing/return-path.ts';
import { signedUp } from '../auth/support/grants.ts';
import { startAuthServer } from '../auth/support/server.ts';
import { findCustomerOfRider, findPaidPlan, listEvents } from '../../src/store/repositories/billing.ts';
import { findRiderById } from '../../src/store/repositories/riders.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import type { Agent } from '../auth/support/oauth.ts';
import { startBillingWorld, type BillingWorld } from './support.ts';

const stripe = new Stripe('sk_test_signer');
let db: TestStore;
let world: BillingWorld;
let alice: { agent: Agent; id: string };
let bob: { agent: Agent; id: string };
let aliceSub = '';

function signed(event: object, secret = DOUBLE_WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return { payload, signature: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

function deliver(payload: string, signature: string | null, origin = world.server.origin) {
  return fetch(`${origin}/api/billing/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
}

let seq = 0;
const event = (type: string, object: object) => ({
  id: `evt_test_abuse_${++seq}`,
  object: 'event',
  created: Math.floor(Date.now() / 1000),
  type,
  data: { object },
});

async function buy(agent: Agent, plan: string) {
  const response = await agent.postJson('/api/rider/billing/checkout', { plan, currency: 'eur' });
  const url = String(((await response.json()) as { url: string }).url);
  await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
}

beforeAll(async () => {
  db = await sqliteTestStore();
  world = await startBillingWorld(db.store);
  alice = await world.freeRider({ email: 'alice.pays@example.com', password: 'alice pays passphrase' });
  bob = await world.freeRider({ email: 'bob.pays@example.com', password: 'bob pays passphrase' });
  await buy(alice.agent, 'pro_monthly');
  aliceSub = (await findPaidPlan(db.store.db, alice.id))?.stripeRef ?? '';
  // Bob has a customer (he opened a checkout) but never paid.
  await bob.agent.postJson('/api/rider/billing/checkout', { plan: 'pro_monthly', currency: 'eur' });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await db?.dispose();
});

describe('the webhook refuses', () => {
  it('a delivery without a signature, and one signed with another secret: 400, nothing stored', async () => {
    const before = (await listEvents(db.store.db)).length;
    const { payload } = signed(event('customer.subscription.updated', { id: aliceSub }));
    expect((await deliver(payload, null)).status).toBe(400);
    const forged = signed(event('customer.subscription.updated', { id: aliceSub }), 'whsec_not_the_secret');
    expect((await deliver(forged.payload, forged.signature)).status).toBe(400);
    const tampered = signed(event('customer.subscription.updated', { id: aliceSub }));
    expect((await deliver(tampered.payload.replace(aliceSub, 'sub_other'), tampered.signature)).status).toBe(
      400,
    );
    expect((await listEvents(db.store.db)).length).toBe(before);
    expect(world.log.filter((line) => line.startsWith('billing webhook refused'))).toHaveLength(3);
  });

  it('a replayed event: handled once, the replay changes nothing', async () => {
    const customer = (await findCustomerOfRider(db.store.db, alice.id))?.customerId;
    const replayed = signed(event('customer.subscription.updated', { id: aliceSub, customer }));
    expect((await (await deliver(replayed.payload, replayed.signature)).json()) as object).toMatchObject({
      received: true,
    });
    const again = await deliver(replayed.payload, replayed.signature);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect(world.log.at(-1)).toMatch(/already handled, replay ignored/);
    expect(
      (await listEvents(db.store.db)).filter((e) => e.id === JSON.parse(replayed.payload).id),
    ).toHaveLength(1);
  });

  it('the same event delivered five times at once is handled exactly once', async () => {
    const customer = (await findCustomerOfRider(db.store.db, alice.id))?.customerId;
    const { payload, signature } = signed(event('customer.subscription.updated', { id: aliceSub, customer }));
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => (await deliver(payload, signature)).json() as Promise<object>),
    );
    expect(answers.filter((a) => 'outcome' in a)).toHaveLength(1);
    expect(answers.filter((a) => 'duplicate' in a)).toHaveLength(4);
    const id = (JSON.parse(payload) as { id: string }).id;
    expect((await listEvents(db.store.db)).filter((e) => e.id === id)).toHaveLength(1);
  });

  it('an out-of-order event stores the subscription as it is now, not as the event shows it', async () => {
    const customer = (await findCustomerOfRider(db.store.db, alice.id))?.customerId;
    const stale = { ...world.double.subscriptions.get(aliceSub), cancel_at_period_end: false };
    await world.double.cancelAtPeriodEnd(aliceSub);
    const late = signed(event('customer.subscription.updated', { ...stale, customer }));
    expect((await deliver(late.payload, late.signature)).status).toBe(200);
    expect(await findPaidPlan(db.store.db, alice.id)).toMatchObject({
      cancelAtPeriodEnd: true,
      status: 'active',
    });
  });

  it('a subscription whose price is not configured: refused, plan unchanged', async () => {
    const before = await findPaidPlan(db.store.db, alice.id);
    const sub = world.double.subscriptions.get(aliceSub);
    const customer = String(sub?.customer);
    world.double.subscriptions.set('sub_test_unknown', {
      ...(sub as NonNullable<typeof sub>),
      id: 'sub_test_unknown',
      items: {
        object: 'list',
        data: [{ price: { id: 'price_not_ours' }, current_period_start: 1, current_period_end: 2 }],
      },
    });
    await world.double.send('customer.subscription.created', { id: 'sub_test_unknown', customer });
    expect(world.log.at(-1)).toMatch(/refused: subscription sub_test_unknown has price price_not_ours/);
    expect(await findPaidPlan(db.store.db, alice.id)).toEqual(before);
  });

  it("a checkout completed for another account (Bob's id on Alice's customer): refused, neither changed", async () => {
    const aliceCustomer = (await findCustomerOfRider(db.store.db, alice.id))?.customerId;
    const before = await findPaidPlan(db.store.db, alice.id);
    await world.double.send('checkout.session.completed', {
      id: 'cs_test_forged',
      object: 'checkout.session',
      mode: 'subscription',
      customer: aliceCustomer,
      client_reference_id: bob.id,
      subscription: aliceSub,
      payment_status: 'paid',
      created: Math.floor(Date.now() / 1000),
    });
    expect(world.log.at(-1)).toMatch(/refused: checkout cs_test_forged names rider/);
    expect(await findPaidPlan(db.store.db, bob.id)).toBeUndefined();
    expect(await findPaidPlan(db.store.db, alice.id)).toEqual(before);
  });

  it('an event for a deleted rider: 200 (Stripe need not retry), logged, nothing written', async () => {
    const bobCustomer = (await findCustomerOfRider(db.store.db, bob.id))?.customerId;
    expect(bobCustomer).toBeDefined();
    await db.store.db.deleteFrom('rider').where('id', '=', bob.id).execute();
    const status = await world.double.send('invoice.paid', {
      id: 'in_test_gone',
      object: 'invoice',
      customer: bobCustomer,
      amount_paid: 499,
      currency: 'eur',
      created: Math.floor(Date.now() / 1000),
    });
    expect(status).toBe(200);
    expect(world.log.at(-1)).toMatch(/is no rider's \(deleted\?\)/);
    expect(await findRiderById(db.store.db, bob.id)).toBeUndefined();
    expect(await findPaidPlan(db.store.db, bob.id)).toBeUndefined();
  });

  it('an unreadable event object: logged as refused, 200', async () => {
    const status = await world.double.send('invoice.paid', { id: 'in_test_bad', customer: 42 });
    expect(status).toBe(200);
    expect(world.log.at(-1)).toMatch(/refused: unreadable invoice.paid object/);
  });
});

describe('the rider billing API refuses', () => {
  it('an unknown plan or currency, a cross-site POST and a signed-out caller', async () => {
    const bad = await alice.agent.postJson('/api/rider/billing/checkout', {
      plan: 'pro_weekly',
      currency: 'eur',
    });
    expect(bad.status).toBe(400);
    const currency = await alice.agent.postJson('/api/rider/billing/checkout', {
      plan: 'pro_monthly',
      currency: 'gbp',
    });
    expect(currency.status).toBe(400);
    const crossSite = await alice.agent.postJson('/api/rider/billing/portal', {}, 'https://evil.example');
    expect(crossSite.status).toBe(403);
    const anonymous = await fetch(`${world.server.origin}/api/rider/billing/checkout`, {
      method: 'POST',
      headers: { origin: world.server.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'pro_monthly', currency: 'eur' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('says whether payments are on at /api/billing/status', async () => {
    const status = (await (await fetch(`${world.server.origin}/api/billing/status`)).json()) as object;
    expect(status).toMatchObject({ payments_enabled: true, currencies: ['eur', 'usd'] });
  });
});

describe('without payments, or with Stripe unreachable', () => {
  it('answers the billing paths plainly where no STRIPE_* variable is set', async () => {
    const bare = await sqliteTestStore();
    const server = await startAuthServer({ store: bare.store });
    try {
      const status = (await (await fetch(`${server.origin}/api/billing/status`)).json()) as object;
      expect(status).toEqual({ payments_enabled: false, plans: [], currencies: [] });
      const { payload, signature } = signed(event('invoice.paid', {}));
      expect((await deliver(payload, signature, server.origin)).status).toBe(404);
      const agent = await signedUp(server.origin, {
        email: 'nopay@example.com',
        password: 'no pay passphrase',
      });
      const checkout = await agent.postJson('/api/rider/billing/checkout', {
        plan: 'pro_monthly',
        currency: 'eur',
      });
      expect(checkout.status).toBe(404);
      expect(await checkout.json()).toMatchObject({ code: 'payments_not_configured' });
      const me = (await (await agent.fetch('/api/rider/me')).json()) as { billing: object };
      expect(me.billing).toMatchObject({ payments_enabled: false, active: false, last_payment: null });
    } finally {
      await server.close();
      await bare.dispose();
    }
  });

  it('answers 502, not a 500 or a hang, when Stripe cannot be reached for a checkout', async () => {
    const bare = await sqliteTestStore();
    const config = doubleBillingConfig('http://127.0.0.1:9');
    const gateway = createStripeGateway(config);
    const server = await startAuthServer({
      store: bare.store,
      billing: { config, gateway, log: () => undefined },
    });
    try {
      const agent = await signedUp(server.origin, {
        email: 'down@example.com',
        password: 'stripe down passphrase',
      });
      const checkout = await agent.postJson('/api/rider/billing/checkout', {
        plan: 'pro_annual',
        currency: 'usd',
      });
      expect(checkout.status).toBe(502);
      expect(await checkout.json()).toMatchObject({ code: 'payment_provider_unavailable' });
    } finally {
      await server.close();
      await bare.dispose();
    }
  }, 60_000);
});

describe('the return path after signing in', () => {
  it('accepts only a path on this site', () => {
    expect(safeReturnPath('/pricing?plan=pro_monthly&currency=eur')).toBe(
      '/pricing?plan=pro_monthly&currency=eur',
    );
    for (const bad of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'pricing', '', null]) {
      expect(safeReturnPath(bad)).toBeUndefined();
    }
  });
});
