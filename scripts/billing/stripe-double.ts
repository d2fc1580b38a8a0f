/**
 * A local stand-in for the Stripe API endpoints this service calls, so the
 * whole payment flow runs offline: the tests use it, and a developer runs it
 * with `npm run stripe:double` to click through checkout and portal.
 *
 * It speaks Stripe's documented wire format: form-encoded requests with
 * `Authorization: Bearer sk_test_…`, JSON objects shaped like Stripe's
 * (`object`, ids with Stripe's prefixes, the period on subscription items as
 * in API 2025-03-31 and later), Stripe's error body, `Idempotency-Key`
 * replays. Its pages stand for Checkout and the customer portal: "Pay"
 * completes the session (creating the subscription or the one-time payment)
 * and "Cancel plan" cancels at period end. A session that completed or
 * expired has no `url` any more and its page says what Stripe's does ("This
 * Checkout Session is no longer active"), so a replayed stale session shows
 * up in a test as it would for a rider. Each change is sent to the
 * webhook URL as a Stripe event signed with the library's own test helper.
 * Only what the service uses is here; it is not a Stripe emulator.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

export interface DoublePrice {
  readonly currency: 'eur' | 'usd';
  /** Minor units. */
  readonly amount: number;
  /** null for a one-time price. */
  readonly interval: 'month' | 'year' | null;
}

export interface StripeDoubleOptions {
  /** Where events are POSTed; set later with {@link StripeDouble.setWebhookUrl} if unknown at start. */
  readonly webhookUrl?: string;
  readonly webhookSecret: string;
  readonly prices: Readonly<Record<string, DoublePrice>>;
  /** Unix seconds; tests move it. */
  readonly now?: () => number;
  readonly port?: number;
  readonly host?: string;
}

type Json = Record<string, unknown>;

interface Subscription extends Json {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  items: { object: 'list'; data: Json[] };
}

export interface StripeDouble {
  /** `http://127.0.0.1:<port>`: the value of `STRIPE_API_BASE`. */
  readonly origin: string;
  readonly customers: Map<string, Json>;
  readonly sessions: Map<string, Json>;
  readonly subscriptions: Map<string, Subscription>;
  readonly charges: Map<string, Json>;
  /** Every request the API side received: method, path and decoded form. */
  readonly requests: { method: string; path: string; form: Json; idempotencyKey: string | null }[];
  /** Every event sent, with the webhook's status. */
  readonly sent: { event: Json; status: number }[];
  setWebhookUrl(url: string): void;
  /** What "Pay" does: completes the session and sends its events. */
  completeCheckout(sessionId: string): Promise<void>;
  /** What Stripe does to an unpaid session after its `expires_at` (or `POST …/expire`). */
  expireCheckout(sessionId: string): Promise<void>;
  /** What "Cancel plan" in the portal does. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** The period ends: a cancelling subscription ends, any other renews (paid, or failed with `fail`). */
  endPeriod(subscriptionId: string, options?: { fail?: boolean }): Promise<void>;
  /** Sends any event, signed; returns the webhook's status. */
  send(type: string, object: Json): Promise<number>;
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

function stripeError(response: ServerResponse, status: number, message: string, param?: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }),
  );
}

function sendJson(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
  response.end(JSON.stringify(body));
}

function page(response: ServerResponse, title: string, body: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
      `<body><main><h1>${title}</h1><p><strong>Test double of Stripe: no real payment.</strong></p>${body}</main></body></html>`,
  );
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location });
  response.end();
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const money = (price: DoublePrice) =>
  `${(price.amount / 100).toFixed(2)} ${price.currency.toUpperCase()}${price.interval ? ` per ${price.interval}` : ' once'}`;

function addPeriod(start: number, interval: 'month' | 'year'): number {
  const date = new Date(start * 1000);
  if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  return Math.floor(date.getTime() / 1000);
}

export async function startStripeDouble(options: StripeDoubleOptions): Promise<StripeDouble> {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const stripe = new Stripe('sk_test_double');
  let webhookUrl = options.webhookUrl;
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Subscription>();
  const charges = new Map<string, Json>();
  const portals = new Map<string, Json>();
  const replays = new Map<string, string>();
  const requests: StripeDouble['requests'] = [];
  const sent: StripeDouble['sent'] = [];
  let origin = '';

  async function send(type: string, object: Json): Promise<number> {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    const payload = JSON.stringify(event);
    const signature = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.webhookSecret,
      timestamp: now(),
    });
    if (!webhookUrl) throw new Error('stripe double: no webhook URL set');
    const reply = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    await reply.arrayBuffer();
    sent.push({ event, status: reply.status });
    return reply.status;
  }

  function priceObject(id: string): Json {
    const price = options.prices[id];
    if (!price) throw new Error(`no such price ${id}`);
    return {
      id,
      object: 'price',
      currency: price.currency,
      unit_amount: price.amount,
      type: price.interval ? 'recurring' : 'one_time',
      recurring: price.interval ? { interval: price.interval, interval_count: 1 } : null,
    };
  }

  function newCharge(customer: string, amount: number, currency: string): Json {
    const charge = {
      id: newId('ch'),
      object: 'charge',
      customer,
      payment_intent: newId('pi'),
      amount,
      currency,
      refunded: false,
      amount_refunded: 0,
      created: now(),
    };
    charges.set(charge.id, charge);
    return charge;
  }

  function invoiceFor(sub: Subscription, charge: Json, paid: boolean): Json {
    const item = sub.items.data[0] as Json & { price: Json };
    return {
      id: newId('in'),
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      amount_paid: paid ? charge['amount'] : 0,
      amount_due: charge['amount'],
      currency: item.price['currency'],
      created: now(),
      status_transitions: { paid_at: paid ? now() : null },
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    };
  }

  async function completeCheckout(sessionId: string): Promise<void> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no such session ${sessionId}`);
    if (session['status'] === 'complete') return;
    const priceId = session['price'] as string;
    const price = options.prices[priceId];
    if (!price) throw new Error(`no such price ${priceId}`);
    if (session['status'] !== 'open') throw new Error(`session ${sessionId} is ${String(session['status'])}`);
    const customer = session['customer'] as string;
    const charge = newCharge(customer, price.amount, price.currency);
    Object.assign(session, { status: 'complete', payment_status: 'paid', url: null });
    if (session['mode'] === 'subscription' && price.interval) {
      const start = now();
      const sub: Subscription = {
        id: newId('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        created: start,
        metadata: session['metadata'] as Json,
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              quantity: 1,
              price: priceObject(priceId),
              current_period_start: start,
              current_period_end: addPeriod(start, price.interval),
            },
          ],
        },
      };
      subscriptions.set(sub.id, sub);
      session['subscription'] = sub.id;
      await send('customer.subscription.created', sub);
      await send('checkout.session.completed', { ...session });
      await send('invoice.paid', invoiceFor(sub, charge, true));
    } else {
      session['payment_intent'] = charge['payment_intent'];
      await send('checkout.session.completed', { ...session });
    }
  }

  async function expireCheckout(sessionId: string): Promise<void> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no such session ${sessionId}`);
    if (session['status'] !== 'open') return;
    Object.assign(session, { status: 'expired', url: null });
    await send('checkout.session.expired', { ...session });
  }

  async function cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no such subscription ${subscriptionId}`);
    Object.assign(sub, { cancel_at_period_end: true, canceled_at: now() });
    await send('customer.subscription.updated', { ...sub });
  }

  async function endPeriod(subscriptionId: string, { fail = false } = {}): Promise<void> {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no such subscription ${subscriptionId}`);
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      await send('customer.subscription.deleted', { ...sub });
      return;
    }
    const item = sub.items.data[0] as Json & { price: Json & { id: string } };
    const price = options.prices[item.price.id];
    if (!price?.interval) throw new Error('stripe double: not a recurring price');
    const start = item['current_period_end'] as number;
    Object.assign(item, {
      current_period_start: start,
      current_period_end: addPeriod(start, price.interval),
    });
    const charge = newCharge(sub.customer, price.amount, price.currency);
    sub.status = fail ? 'past_due' : 'active';
    await send(fail ? 'invoice.payment_failed' : 'invoice.paid', invoiceFor(sub, charge, !fail));
    await send('customer.subscription.updated', { ...sub });
  }

  const api = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    const authorization = request.headers.authorization ?? '';
    if (!/^Bearer sk_test_\w+$/.test(authorization)) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }),
      );
      return;
    }
    const raw = await readBody(request);
    const form = qs.parse(raw) as Json;
    const key = (request.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ method: request.method ?? '', path, form, idempotencyKey: key });
    const replayKey = key && `${request.method} ${path} ${key}`;
    if (replayKey && replays.has(replayKey)) {
      response.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      response.end(replays.get(replayKey));
      return;
    }
    const answer = (body: Json) => {
      if (replayKey) replays.set(replayKey, JSON.stringify(body));
      sendJson(response, body);
    };
    const get = request.method === 'GET';
    let match: RegExpMatchArray | null;
    if (!get && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: form['email'] ?? null,
        metadata: form['metadata'] ?? {},
      };
      customers.set(customer.id, customer);
      return answer(customer);
    }
    if (!get && path === '/v1/checkout/sessions') {
      const items = form['line_items'] as { price?: string }[] | undefined;
      const priceId = items?.[0]?.price;
      if (!priceId || !options.prices[priceId])
        return stripeError(response, 400, `No such price: '${priceId ?? ''}'`, 'line_items[0][price]');
      const customer = form['customer'];
      if (typeof customer !== 'string' || !customers.has(customer))
        return stripeError(response, 400, `No such customer: '${String(customer)}'`, 'customer');
      const price = options.prices[priceId];
      const id = newId('cs');
      const session = {
        id,
        object: 'checkout.session',
        mode: form['mode'],
        customer,
        client_reference_id: form['client_reference_id'] ?? null,
        status: 'open',
        payment_status: 'unpaid',
        url: `${origin}/checkout/${id}`,
        success_url: form['success_url'],
        cancel_url: form['cancel_url'],
        subscription: null,
        payment_intent: null,
        amount_total: price?.amount ?? null,
        currency: price?.currency ?? null,
        created: now(),
        metadata: form['metadata'] ?? {},
        price: priceId,
      };
      sessions.set(id, session);
      return answer(session);
    }
    if (get && path === '/v1/checkout/sessions') {
      // Newest first, as Stripe lists; filtered by customer and status when asked.
      const query = qs.parse((request.url ?? '').split('?')[1] ?? '') as Json;
      const limit = Math.min(100, Math.max(1, Number(query['limit'] ?? 10)));
      const data = [...sessions.values()]
        .reverse()
        .filter((s) => query['customer'] === undefined || s['customer'] === query['customer'])
        .filter((s) => query['status'] === undefined || s['status'] === query['status']);
      return answer({
        object: 'list',
        url: '/v1/checkout/sessions',
        has_more: data.length > limit,
        data: data.slice(0, limit),
      });
    }
    if (!get && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const session = sessions.get(match[1] ?? '');
      if (!session) return stripeError(response, 404, 'No such checkout session');
      if (session['status'] !== 'open')
        return stripeError(response, 400, `Only Checkout Sessions with a status of open can be expired.`);
      await expireCheckout(session['id'] as string);
      return answer(session);
    }
    if (get && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/))) {
      const session = sessions.get(match[1] ?? '');
      if (!session) return stripeError(response, 404, 'No such checkout session');
      return answer({
        object: 'list',
        has_more: false,
        data: [
          { id: newId('li'), object: 'item', quantity: 1, price: priceObject(session['price'] as string) },
        ],
      });
    }
    if (get && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessions.get(match[1] ?? '');
      return session ? answer(session) : stripeError(response, 404, 'No such checkout session');
    }
    if (!get && path === '/v1/billing_portal/sessions') {
      const customer = form['customer'];
      if (typeof customer !== 'string' || !customers.has(customer))
        return stripeError(response, 400, `No such customer: '${String(customer)}'`, 'customer');
      const id = newId('bps');
      const portal = {
        id,
        object: 'billing_portal.session',
        customer,
        return_url: form['return_url'],
        url: `${origin}/portal/${id}`,
      };
      portals.set(id, portal);
      return answer(portal);
    }
    if (request.method === 'DELETE' && (match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      // Cancel now (not at the period's end): what an account deletion asks for.
      const sub = subscriptions.get(match[1] ?? '');
      if (!sub) return stripeError(response, 404, `No such subscription: '${match[1] ?? ''}'`);
      if (sub.status !== 'canceled') {
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        await send('customer.subscription.deleted', { ...sub });
      }
      return answer(sub);
    }
    if (get && (match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = subscriptions.get(match[1] ?? '');
      return sub ? answer(sub) : stripeError(response, 404, `No such subscription: '${match[1] ?? ''}'`);
    }
    if (get && (match = path.match(/^\/v1\/charges\/([^/]+)$/))) {
      const charge = charges.get(match[1] ?? '');
      return charge ? answer(charge) : stripeError(response, 404, `No such charge: '${match[1] ?? ''}'`);
    }
    stripeError(response, 404, `Unrecognized request URL (${request.method}: ${path}).`);
  };

  const browser = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    let match: RegExpMatchArray | null;
    if ((match = path.match(/^\/checkout\/([^/]+)(\/pay)?$/))) {
      const session = sessions.get(match[1] ?? '');
      if (!session) return stripeError(response, 404, 'No such checkout session');
      if (session['status'] !== 'open') {
        return page(
          response,
          'Checkout',
          '<p id="inactive">This Checkout Session is no longer active.</p>' +
            `<p><a href="${escape(String(session['cancel_url']))}">Back</a></p>`,
        );
      }
      if (match[2] && request.method === 'POST') {
        await completeCheckout(session['id'] as string);
        return redirect(
          response,
          String(session['success_url']).replace('{CHECKOUT_SESSION_ID}', String(session['id'])),
        );
      }
      const price = options.prices[session['price'] as string];
      return page(
        response,
        'Test checkout',
        `<p id="amount">${price ? escape(money(price)) : ''}</p>` +
          `<form method="post" action="/checkout/${escape(String(session['id']))}/pay"><button type="submit">Pay</button></form>` +
          `<p><a href="${escape(String(session['cancel_url']))}">Back</a></p>`,
      );
    }
    if ((match = path.match(/^\/portal\/([^/]+)(\/cancel)?$/))) {
      const portal = portals.get(match[1] ?? '');
      if (!portal) return stripeError(response, 404, 'No such portal session');
      const sub = [...subscriptions.values()].find(
        (s) => s.customer === portal['customer'] && s.status !== 'canceled',
      );
      if (match[2] && request.method === 'POST') {
        if (sub) await cancelAtPeriodEnd(sub.id);
        return redirect(response, String(portal['return_url']));
      }
      const state = sub
        ? `<p id="subscription">${escape(String(sub.status))}${sub.cancel_at_period_end ? ', cancels at period end' : ''}</p>` +
          `<form method="post" action="/portal/${escape(String(portal['id']))}/cancel"><button type="submit">Cancel plan</button></form>`
        : '<p id="subscription">No subscription.</p>';
      return page(
        response,
        'Test customer portal',
        `${state}<p><a href="${escape(String(portal['return_url']))}">Return</a></p>`,
      );
    }
    stripeError(response, 404, 'Not found');
  };

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const handler = path.startsWith('/v1/') ? api : browser;
    handler(request, response, path).catch((error: unknown) => {
      if (!response.headersSent)
        stripeError(response, 500, error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  origin = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    customers,
    sessions,
    subscriptions,
    charges,
    requests,
    sent,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    completeCheckout,
    expireCheckout,
    cancelAtPeriodEnd,
    endPeriod,
    send,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
