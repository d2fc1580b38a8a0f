/**
 * One Checkout Session per attempt to buy: a double click (or a second tab)
 * gets the session the first click opened, and so does coming back to Buy
 * while that session is still open; but once it completed (and was
 * refunded) or expired, the next Buy is a new attempt and must get a new,
 * payable session, never Stripe's replay of the old one, whose page says
 * "This Checkout Session is no longer active". Runs against the Stripe
 * test double, which keeps Stripe's idempotency replays and stale pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPaidPlan } from '../../src/store/repositories/billing.ts';
import type { Agent } from '../auth/support/oauth.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import { startBillingWorld, type BillingWorld } from './support.ts';

let db: TestStore;
let world: BillingWorld;

beforeAll(async () => {
  db = await sqliteTestStore();
  world = await startBillingWorld(db.store);
}, 120_000);
afterAll(async () => {
  await world?.close();
  await db?.dispose();
});

async function buy(agent: Agent, plan: string, currency = 'eur'): Promise<string> {
  const response = await agent.postJson('/api/rider/billing/checkout', { plan, currency });
  const body = (await response.json()) as { url?: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return String(body.url);
}

const sessionOf = (url: string) => world.double.sessions.get(url.split('/').pop() ?? '');

/** What the rider sees on the Checkout page: payable, or Stripe's dead end. */
async function checkoutPage(url: string): Promise<'payable' | 'no longer active'> {
  const html = await (await fetch(url)).text();
  if (html.includes('no longer active')) return 'no longer active';
  expect(html).toContain('Pay');
  return 'payable';
}

const sessionsOf = (riderId: string) =>
  [...world.double.sessions.values()].filter((s) => s['client_reference_id'] === riderId);

describe('a Checkout idempotency key names one attempt', () => {
  it('a double click, and a return to Buy while the session is open, share one session', async () => {
    const { agent, id } = await world.freeRider({ email: 'twice@example.com', password: 'twice passphrase' });
    const [first, second] = await Promise.all([buy(agent, 'pro_annual'), buy(agent, 'pro_annual')]);
    expect(second).toBe(first);
    expect(await buy(agent, 'pro_annual')).toBe(first);
    expect(sessionsOf(id)).toHaveLength(1);
    expect(await checkoutPage(first)).toBe('payable');
    // Another plan or currency is another attempt.
    expect(await buy(agent, 'pro_annual', 'usd')).not.toBe(first);
    expect(sessionsOf(id)).toHaveLength(2);
  });

  it('after a session expired, Buy opens a new payable session', async () => {
    const { agent, id } = await world.freeRider({
      email: 'expired@example.com',
      password: 'expired passphrase',
    });
    const first = await buy(agent, 'pro_monthly');
    await world.double.expireCheckout(String(sessionOf(first)?.['id']));
    expect(await checkoutPage(first)).toBe('no longer active');

    const again = await buy(agent, 'pro_monthly');
    expect(again).not.toBe(first);
    expect(await checkoutPage(again)).toBe('payable');
    const [twice, thrice] = await Promise.all([buy(agent, 'pro_monthly'), buy(agent, 'pro_monthly')]);
    expect([twice, thrice]).toEqual([again, again]);
    expect(sessionsOf(id)).toHaveLength(2);
  });

  it('a rider refunded minutes after paying can buy again, and pays on a live session', async () => {
    const { agent, id } = await world.freeRider({
      email: 'refunded@example.com',
      password: 'refund passphrase',
    });
    const first = await buy(agent, 'pro_lifetime');
    await fetch(`${first}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await findPaidPlan(db.store.db, id)).toMatchObject({ status: 'lifetime' });
    const customer = sessionOf(first)?.['customer'];
    const charge = [...world.double.charges.values()].find((c) => c['customer'] === customer);
    await world.double.send('charge.refunded', {
      ...charge,
      refunded: true,
      amount_refunded: charge?.['amount'],
    });
    expect(await findPaidPlan(db.store.db, id)).toMatchObject({ status: 'refunded' });

    const again = await buy(agent, 'pro_lifetime');
    expect(again).not.toBe(first);
    expect(await checkoutPage(again)).toBe('payable');
    const paid = await fetch(`${again}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(await findPaidPlan(db.store.db, id)).toMatchObject({ status: 'lifetime' });
  });
});
