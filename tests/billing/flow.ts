/**
 * The payment flow end to end on one store engine: a Free rider buys Pro
 * Monthly (checkout at the Stripe test double, events signed by the
 * library's test helper), the assistant's next get_my_watchlist shows Pro
 * without a quota, the rider cancels in the portal and is Free at the
 * period end; then the lifetime plan, a failed renewal with its grace
 * period, a refund and a dispute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRACE_DAYS } from '../../src/core/billing-rules.ts';
import { FREE_MONTHLY_CALLS } from '../../src/core/rider-rules.ts';
import { isoTime } from '../../src/core/time.ts';
import type { Store } from '../../src/store/database.ts';
import { hasProAccess } from '../../src/core/rider-rules.ts';
import { listAlertWatchPage } from '../../src/store/repositories/alert-watches.ts';
import { findPaidPlan, listEvents } from '../../src/store/repositories/billing.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { startBillingWorld, watchlist, type BillingWorld } from './support.ts';

const DAY_MS = 86_400_000;

async function post(
  agent: { postJson(path: string, body: unknown): Promise<Response> },
  path: string,
  body: unknown = {},
) {
  const response = await agent.postJson(path, body);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export function describeBillingFlow(
  engine: string,
  openStore: () => Promise<{ store: Store; dispose(): Promise<void> }>,
) {
  describe(`payments on ${engine}`, () => {
    let world: BillingWorld;
    let dispose: () => Promise<void>;
    let store: Store;

    beforeAll(async () => {
      const opened = await openStore();
      store = opened.store;
      dispose = opened.dispose;
      world = await startBillingWorld(store);
    }, 120_000);
    afterAll(async () => {
      await world?.close();
      await dispose?.();
    });

    it('Free → buys Pro Monthly → Pro with no quota → cancels in the portal → Free at period end', async () => {
      world.clock = Date.now();
      const { agent, id, mcp } = await world.freeRider({
        email: `monthly-${engine}@example.com`,
        password: 'monthly passphrase',
      });
      const before = await watchlist(mcp);
      expect(before.access).toMatchObject({ plan: 'free', pro_access: false, paid_plan: null });
      expect(before.usage.limit).toBe(FREE_MONTHLY_CALLS);

      // A double click on Buy: both answers lead to one and the same Checkout Session.
      const [first, second] = await Promise.all([
        post(agent, '/api/rider/billing/checkout', { plan: 'pro_monthly', currency: 'eur' }),
        post(agent, '/api/rider/billing/checkout', { plan: 'pro_monthly', currency: 'eur' }),
      ]);
      expect(first.status).toBe(200);
      expect(second.body['url']).toBe(first.body['url']);
      const checkoutUrl = String(first.body['url']);
      expect(checkoutUrl.startsWith(`${world.double.origin}/checkout/cs_test_`)).toBe(true);
      const mine = [...world.double.sessions.values()].filter((s) => s['client_reference_id'] === id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ mode: 'subscription', price: 'price_pro_monthly_eur' });
      // Stripe's wire format: form fields, the secret key as bearer, the idempotency key.
      const created = world.double.requests.find(
        (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions',
      );
      expect(created?.form).toMatchObject({
        line_items: [{ price: 'price_pro_monthly_eur', quantity: '1' }],
      });
      expect(created?.idempotencyKey).toMatch(/^wos-checkout-/);

      // The rider pays on the Checkout page and comes back to the success page.
      expect(await (await fetch(checkoutUrl)).text()).toContain('Pay');
      const paid = await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toMatch(
        new RegExp(`^${world.server.origin}/billing/success\\?session_id=cs_test_`),
      );
      expect(world.double.sent.map((s) => s.status)).toEqual(world.double.sent.map(() => 200));

      const pro = await watchlist(mcp);
      const plan = await findPaidPlan(store.db, id);
      expect(plan).toMatchObject({ planId: 'pro_monthly', status: 'active', cancelAtPeriodEnd: false });
      const periodEnd = plan?.periodEnd ?? 0;
      expect(pro.access).toMatchObject({
        plan: 'pro',
        pro_access: true,
        paid_plan: 'pro_monthly',
        renews_at: isoTime(periodEnd),
        pro_until: null,
      });
      expect(pro.usage.limit).toBeNull();
      // The alert job reads the same paid plan: a paying rider's watches get alerts.
      await watchSegment(store.db, id, 'fr-alpe-d-huez');
      const { watches } = await listAlertWatchPage(store.db, { limit: 1_000 });
      const watch = watches.find((w) => w.riderId === id);
      expect(watch && hasProAccess(watch, Math.floor(world.clock / 1000))).toBe(true);

      const me = (await (await agent.fetch('/api/rider/me')).json()) as {
        rider: { plan: string };
        billing: Record<string, unknown>;
      };
      expect(me.rider.plan).toBe('pro');
      expect(me.billing).toMatchObject({
        plan_id: 'pro_monthly',
        renews_at: isoTime(periodEnd),
        last_payment: { amount_minor: 499, currency: 'eur' },
      });

      // The portal: cancel, and back to the settings page.
      const portal = await post(agent, '/api/rider/billing/portal');
      expect(portal.status).toBe(200);
      const portalUrl = String(portal.body['url']);
      expect(portalUrl.startsWith(`${world.double.origin}/portal/`)).toBe(true);
      const cancelled = await fetch(`${portalUrl}/cancel`, { method: 'POST', redirect: 'manual' });
      expect(cancelled.headers.get('location')).toBe(`${world.server.origin}/settings`);

      const cancelling = await watchlist(mcp);
      expect(cancelling.access).toMatchObject({
        plan: 'pro',
        renews_at: null,
        pro_until: isoTime(periodEnd),
      });

      // Still Pro a second before the period ends, Free from its end, with no event needed.
      world.clock = (periodEnd - 1) * 1000;
      expect((await watchlist(mcp)).access.plan).toBe('pro');
      world.clock = periodEnd * 1000;
      const after = await watchlist(mcp);
      expect(after.access).toMatchObject({ plan: 'free', pro_access: false, paid_plan: null });
      expect(after.usage.limit).toBe(FREE_MONTHLY_CALLS);

      // Stripe's own end-of-period event agrees.
      const subscription = plan?.stripeRef ?? '';
      await world.double.endPeriod(subscription);
      expect(await findPaidPlan(store.db, id)).toMatchObject({ status: 'canceled' });
      const events = await listEvents(store.db);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(events.filter((e) => e.riderId === id).length).toBeGreaterThanOrEqual(5);
    });

    it('a failed renewal keeps Pro through the grace period, then Free; paying again restores it', async () => {
      world.clock = Date.now();
      const { agent, id, mcp } = await world.freeRider({
        email: `grace-${engine}@example.com`,
        password: 'grace passphrase',
      });
      const checkout = await post(agent, '/api/rider/billing/checkout', {
        plan: 'pro_annual',
        currency: 'usd',
      });
      await fetch(`${String(checkout.body['url'])}/pay`, { method: 'POST', redirect: 'manual' });
      const plan = await findPaidPlan(store.db, id);
      expect(plan).toMatchObject({ planId: 'pro_annual', status: 'active' });
      await world.double.endPeriod(plan?.stripeRef ?? '', { fail: true });
      const failed = await findPaidPlan(store.db, id);
      expect(failed?.status).toBe('past_due');
      const graceEnd = (failed?.periodStart ?? 0) + GRACE_DAYS * 86_400;
      world.clock = (graceEnd - 1) * 1000;
      expect((await watchlist(mcp)).access).toMatchObject({ plan: 'pro', pro_until: isoTime(graceEnd) });
      world.clock = graceEnd * 1000;
      expect((await watchlist(mcp)).access.plan).toBe('free');
      const me = (await (await agent.fetch('/api/rider/me')).json()) as { billing: Record<string, unknown> };
      expect(me.billing['grace_until']).toBe(isoTime(graceEnd));
    });

    it('lifetime is Pro for good; a full refund ends it; a dispute suspends it until won', async () => {
      world.clock = Date.now();
      const { agent, id, mcp } = await world.freeRider({
        email: `lifetime-${engine}@example.com`,
        password: 'lifetime passphrase',
      });
      const checkout = await post(agent, '/api/rider/billing/checkout', {
        plan: 'pro_lifetime',
        currency: 'eur',
      });
      await fetch(`${String(checkout.body['url'])}/pay`, { method: 'POST', redirect: 'manual' });
      expect(await findPaidPlan(store.db, id)).toMatchObject({ planId: 'pro_lifetime', status: 'lifetime' });
      world.clock = Date.now() + 3650 * DAY_MS;
      expect((await watchlist(mcp)).access).toMatchObject({
        plan: 'pro',
        paid_plan: 'pro_lifetime',
        renews_at: null,
        pro_until: null,
      });
      // Buying again while Pro is refused: plan changes go through the portal.
      expect(
        (await post(agent, '/api/rider/billing/checkout', { plan: 'pro_monthly', currency: 'eur' })).status,
      ).toBe(409);

      const charge = [...world.double.charges.values()].find(
        (c) =>
          c['customer'] ===
          world.double.sessions.get(String(String(checkout.body['url']).split('/').pop()))?.['customer'],
      );
      expect(charge).toBeDefined();
      await world.double.send('charge.dispute.created', {
        id: 'dp_test_1',
        object: 'dispute',
        charge: charge?.['id'],
        payment_intent: charge?.['payment_intent'],
        status: 'needs_response',
      });
      expect((await watchlist(mcp)).access.plan).toBe('free');
      await world.double.send('charge.dispute.closed', {
        id: 'dp_test_1',
        object: 'dispute',
        charge: charge?.['id'],
        payment_intent: charge?.['payment_intent'],
        status: 'won',
      });
      expect((await watchlist(mcp)).access.plan).toBe('pro');

      await world.double.send('charge.refunded', {
        ...charge,
        refunded: true,
        amount_refunded: charge?.['amount'],
      });
      expect(await findPaidPlan(store.db, id)).toMatchObject({ status: 'refunded' });
      expect((await watchlist(mcp)).access.plan).toBe('free');
    });
  });
}
