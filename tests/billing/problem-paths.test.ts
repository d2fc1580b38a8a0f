/**
 * Every error path of the settings API (`/api/rider/*`) and of billing
 * (`/api/billing/*`, checkout, portal), walked as a table: each answer is an
 * RFC 9457 problem document (`application/problem+json`, `no-store`) whose
 * `type` links to the code's anchor on the docs page, whose title and status
 * are the code's, with a detail and a hint, the request path as `instance`,
 * and the code's own fields. A last check makes sure the table names every
 * account and billing code, so a new code cannot ship without its row.
 */
import { request } from 'node:http';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { doubleBillingConfig, DOUBLE_WEBHOOK_SECRET } from '../../scripts/billing/double-prices.ts';
import { accountPayments } from '../../src/app/rider-endpoints.ts';
import { riderApi } from '../../src/account/account-api.ts';
import type { BillingGateway } from '../../src/billing/gateway.ts';
import { createStripeGateway } from '../../src/billing/stripe-gateway.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../src/core/plans.ts';
import {
  ACCOUNT_PROBLEM_CODES,
  problemAnchor,
  problemTitle,
  type AnyProblemCode,
} from '../../src/core/problems.ts';
import { problemStatus } from '../../src/http/problem-json.ts';
import { WATCHLIST_MAX_SEGMENTS } from '../../src/core/rider-rules.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { signedUp } from '../auth/support/grants.ts';
import type { Agent } from '../auth/support/oauth.ts';
import { startAuthServer, type AuthServer } from '../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import { climbGpx } from '../mcp/own-segment-fixtures.ts';
import { startBillingWorld, type BillingWorld } from './support.ts';
import { checkWebhookUrl } from '../../src/rider/webhook-url.ts';

const stripe = new Stripe('sk_test_signer');

let db: TestStore;
let world: BillingWorld;
/** Paid Pro Monthly. */
let payer: Agent;
/** Free, trial over, own-segment allowance used up. */
let full: Agent;
/** In the trial, watchlist at its maximum. */
let watcher: Agent;
/** Signed up, never opened a checkout. */
let fresh: Agent;

/** A deployment without payments. */
let bare: { db: TestStore; server: AuthServer; rider: Agent };
/** A deployment whose Stripe cannot be reached (and can lose a rider mid-checkout). */
let down: { db: TestStore; server: AuthServer; rider: Agent; vanishing: Agent; customer: string };

function signed(event: object) {
  const payload = JSON.stringify(event);
  return {
    payload,
    signature: stripe.webhooks.generateTestHeaderString({ payload, secret: DOUBLE_WEBHOOK_SECRET }),
  };
}

function webhook(origin: string, payload: string, signature: string | null): Promise<Response> {
  return fetch(`${origin}/api/billing/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
}

/** A GET naming another host in its Host header (which fetch will not send), as a Response. */
function withHost(url: string, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(answer.headers))
          if (typeof value === 'string') headers.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 0, headers }));
      });
    });
    call.on('error', reject);
    call.end();
  });
}

async function me(agent: Agent): Promise<{ rider: { id: string } }> {
  return (await (await agent.fetch('/api/rider/me')).json()) as { rider: { id: string } };
}

/** A Stripe gateway to nowhere, except that it hands out customers (and, for one rider, deletes the account first). */
function unreachableGateway(store: TestStore, vanish: () => string | undefined): BillingGateway {
  const real = createStripeGateway(doubleBillingConfig('http://127.0.0.1:9'));
  return {
    ...real,
    async createCustomer({ riderId }) {
      if (riderId === vanish()) await sql`delete from rider where id = ${riderId}`.execute(store.store.db);
      return `cus_down_${riderId}`;
    },
    verifyEvent: (payload, signature) => real.verifyEvent(payload, signature),
  };
}

beforeAll(async () => {
  db = await sqliteTestStore();
  world = await startBillingWorld(db.store);
  payer = (await world.freeRider({ email: 'payer@example.com', password: 'payer passphrase' })).agent;
  const checkout = await payer.postJson('/api/rider/billing/checkout', {
    plan: 'pro_monthly',
    currency: 'eur',
  });
  const url = String(((await checkout.json()) as { url: string }).url);
  await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });

  full = (await world.freeRider({ email: 'full@example.com', password: 'full passphrase' })).agent;
  for (let n = 0; n < OWN_SEGMENT_ALLOWANCE.free; n += 1) {
    const saved = await full.postJson('/api/rider/segments', {
      name: `Mine ${n}`,
      format: 'gpx',
      text: climbGpx(),
    });
    expect(saved.status).toBe(201);
  }
  watcher = await signedUp(world.server.origin, {
    email: 'watcher@example.com',
    password: 'watcher passphrase',
  });
  const watcherId = (await me(watcher)).rider.id;
  for (let n = 0; n < WATCHLIST_MAX_SEGMENTS; n += 1)
    await watchSegment(db.store.db, watcherId, `xx-seg-${n}`);
  fresh = await signedUp(world.server.origin, { email: 'fresh@example.com', password: 'fresh passphrase' });

  const bareDb = await sqliteTestStore();
  const bareServer = await startAuthServer({ store: bareDb.store });
  bare = {
    db: bareDb,
    server: bareServer,
    rider: await signedUp(bareServer.origin, { email: 'bare@example.com', password: 'bare passphrase' }),
  };

  const downDb = await sqliteTestStore();
  const gone: { id?: string } = {};
  const config = doubleBillingConfig('http://127.0.0.1:9');
  const downServer = await startAuthServer({
    store: downDb.store,
    billing: { config, gateway: unreachableGateway(downDb, () => gone.id), log: () => undefined },
  });
  const rider = await signedUp(downServer.origin, { email: 'down@example.com', password: 'down passphrase' });
  const vanishing = await signedUp(downServer.origin, {
    email: 'gone@example.com',
    password: 'gone passphrase',
  });
  gone.id = (await me(vanishing)).rider.id;
  down = {
    db: downDb,
    server: downServer,
    rider,
    vanishing,
    customer: `cus_down_${(await me(rider)).rider.id}`,
  };
}, 180_000);

afterAll(async () => {
  await Promise.all([world?.close(), bare?.server.close(), down?.server.close()]);
  await Promise.all([db?.dispose(), bare?.db.dispose(), down?.db.dispose()]);
});

interface Row {
  readonly name: string;
  readonly code: AnyProblemCode;
  readonly path: string;
  /** The origin the docs link is on (the server that answered). */
  readonly origin: () => string;
  readonly call: () => Promise<Response>;
  readonly fields?: Record<string, unknown>;
  readonly allow?: string;
}

const main = () => world.server.origin;
const anon = (path: string, init: RequestInit = {}) => fetch(`${main()}${path}`, init);
const SEGMENTS = '/api/rider/segments';
const WEBHOOK = '/api/rider/webhook';
const CHECKOUT = '/api/rider/billing/checkout';
const PORTAL = '/api/rider/billing/portal';
const MONTHLY = { plan: 'pro_monthly', currency: 'eur' };

const ROWS: Row[] = [
  // The settings API.
  {
    name: 'an unknown path',
    code: 'not_found',
    path: '/api/rider/nothing',
    origin: main,
    call: () => payer.fetch('/api/rider/nothing'),
  },
  {
    name: 'a POST to me',
    code: 'method_not_allowed',
    path: '/api/rider/me',
    origin: main,
    allow: 'GET',
    call: () => payer.postJson('/api/rider/me', {}),
  },
  {
    name: 'a GET of the webhook',
    code: 'method_not_allowed',
    path: WEBHOOK,
    origin: main,
    allow: 'POST',
    call: () => payer.fetch(WEBHOOK),
  },
  {
    name: 'a host the server does not serve',
    code: 'misdirected_request',
    path: '/api/rider/me',
    origin: () => 'http://rebound.example',
    call: () => withHost(`${main()}/api/rider/me`, 'rebound.example'),
  },
  {
    name: 'no session',
    code: 'unauthorized',
    path: '/api/rider/me',
    origin: main,
    call: () => anon('/api/rider/me'),
  },
  {
    name: 'a cross-site POST',
    code: 'cross_site_request',
    path: WEBHOOK,
    origin: main,
    call: () => payer.postJson(WEBHOOK, { url: null }, 'https://evil.example'),
  },
  {
    name: 'a POST without Origin',
    code: 'cross_site_request',
    path: SEGMENTS,
    origin: main,
    call: () => payer.postJson(SEGMENTS, {}, null),
  },
  {
    name: 'a form-encoded webhook',
    code: 'unsupported_media_type',
    path: WEBHOOK,
    origin: main,
    call: () =>
      payer.fetch(WEBHOOK, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'url=x',
      }),
  },
  {
    name: 'a huge webhook body',
    code: 'payload_too_large',
    path: WEBHOOK,
    origin: main,
    call: () => payer.postJson(WEBHOOK, { url: `https://example.com/${'x'.repeat(20_000)}` }),
  },
  {
    name: 'webhook JSON cut short',
    code: 'invalid_request',
    path: WEBHOOK,
    origin: main,
    call: () =>
      payer.fetch(WEBHOOK, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"url": ',
      }),
  },
  {
    name: 'a plain-http webhook',
    code: 'invalid_webhook_url',
    path: WEBHOOK,
    origin: main,
    call: () => payer.postJson(WEBHOOK, { url: 'http://example.com/hook' }),
  },
  {
    name: 'a segment upload of the wrong type',
    code: 'unsupported_media_type',
    path: SEGMENTS,
    origin: main,
    call: () =>
      payer.fetch(SEGMENTS, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'gpx' }),
  },
  {
    name: 'a segment upload over 4 MB',
    code: 'payload_too_large',
    path: SEGMENTS,
    origin: main,
    call: () => payer.postJson(SEGMENTS, { name: 'x', format: 'gpx', text: 'x'.repeat(4 * 1024 * 1024) }),
  },
  {
    name: 'a segment upload in KML',
    code: 'invalid_request',
    path: SEGMENTS,
    origin: main,
    call: () => payer.postJson(SEGMENTS, { name: 'x', format: 'kml', text: climbGpx() }),
  },
  {
    name: 'a GPX without points',
    code: 'invalid_route',
    path: SEGMENTS,
    origin: main,
    fields: { route_error: expect.any(String) },
    call: () => payer.postJson(SEGMENTS, { name: 'x', format: 'gpx', text: '<gpx></gpx>' }),
  },
  {
    name: 'a free rider over the allowance',
    code: 'allowance_reached',
    path: SEGMENTS,
    origin: main,
    fields: { pricing: true },
    call: () => full.postJson(SEGMENTS, { name: 'One more', format: 'gpx', text: climbGpx() }),
  },
  {
    name: 'a full watchlist',
    code: 'watchlist_full',
    path: SEGMENTS,
    origin: main,
    call: () => watcher.postJson(SEGMENTS, { name: 'More', format: 'gpx', text: climbGpx() }),
  },
  {
    name: 'removing with no id',
    code: 'invalid_request',
    path: `${SEGMENTS}/remove`,
    origin: main,
    call: () => payer.postJson(`${SEGMENTS}/remove`, {}),
  },
  {
    name: 'removing an unknown segment',
    code: 'segment_not_found',
    path: `${SEGMENTS}/remove`,
    origin: main,
    call: () => payer.postJson(`${SEGMENTS}/remove`, { segment_id: 'my--nothing' }),
  },
  {
    name: 'disconnecting an unknown assistant',
    code: 'connection_not_found',
    path: '/api/rider/connections/nobody/disconnect',
    origin: main,
    call: () => payer.postJson('/api/rider/connections/nobody/disconnect', {}),
  },
  // Checkout and portal.
  {
    name: 'a checkout for an unknown plan',
    code: 'invalid_request',
    path: CHECKOUT,
    origin: main,
    call: () => payer.postJson(CHECKOUT, { plan: 'pro_weekly', currency: 'eur' }),
  },
  {
    name: 'a checkout by a payer',
    code: 'already_paid',
    path: CHECKOUT,
    origin: main,
    call: () => payer.postJson(CHECKOUT, MONTHLY),
  },
  {
    name: 'the portal before any checkout',
    code: 'no_billing_account',
    path: PORTAL,
    origin: main,
    call: () => fresh.postJson(PORTAL, {}),
  },
  {
    name: 'a checkout without payments',
    code: 'payments_not_configured',
    path: CHECKOUT,
    origin: () => bare.server.origin,
    call: () => bare.rider.postJson(CHECKOUT, MONTHLY),
  },
  {
    name: 'the portal without payments',
    code: 'payments_not_configured',
    path: PORTAL,
    origin: () => bare.server.origin,
    call: () => bare.rider.postJson(PORTAL, {}),
  },
  {
    name: 'a checkout while Stripe is down',
    code: 'payment_provider_unavailable',
    path: CHECKOUT,
    origin: () => down.server.origin,
    call: () => down.rider.postJson(CHECKOUT, MONTHLY),
  },
  {
    name: 'a checkout for an account deleted meanwhile',
    code: 'account_not_found',
    path: CHECKOUT,
    origin: () => down.server.origin,
    call: () => down.vanishing.postJson(CHECKOUT, MONTHLY),
  },
  // The alert channels and the links in mails and calendars.
  {
    name: 'a push subscription with malformed keys',
    code: 'invalid_push_subscription',
    path: '/api/rider/push',
    origin: main,
    call: () =>
      payer.postJson('/api/rider/push', {
        endpoint: 'https://push.example/abc',
        keys: { p256dh: 'not-a-key', auth: 'short' },
      }),
  },
  {
    name: 'removing a push device that is not the rider’s',
    code: 'device_not_found',
    path: '/api/rider/push/remove',
    origin: main,
    call: () => payer.postJson('/api/rider/push/remove', { id: 'unknown-device' }),
  },
  {
    name: 'a forged calendar address',
    code: 'link_not_valid',
    path: '/api/rider/calendar/forged-secret.ics',
    origin: main,
    call: () => anon('/api/rider/calendar/forged-secret.ics'),
  },
  {
    name: 'a forged unsubscribe link',
    code: 'link_not_valid',
    path: '/api/rider/unsubscribe',
    origin: main,
    call: () =>
      anon('/api/rider/unsubscribe?token=forged', { method: 'POST', body: 'List-Unsubscribe=One-Click' }),
  },
  // The public billing paths.
  {
    name: 'an unknown billing path',
    code: 'not_found',
    path: '/api/billing/nothing',
    origin: main,
    call: () => anon('/api/billing/nothing'),
  },
  {
    name: 'a POST to the status',
    code: 'method_not_allowed',
    path: '/api/billing/status',
    origin: main,
    allow: 'GET, HEAD',
    call: () => anon('/api/billing/status', { method: 'POST' }),
  },
  {
    name: 'a GET of the Stripe webhook',
    code: 'method_not_allowed',
    path: '/api/billing/webhook',
    origin: main,
    allow: 'POST',
    call: () => anon('/api/billing/webhook'),
  },
  {
    name: 'an unsigned event',
    code: 'invalid_signature',
    path: '/api/billing/webhook',
    origin: main,
    call: () => webhook(main(), '{}', null),
  },
  {
    name: 'an event signed with another secret',
    code: 'invalid_signature',
    path: '/api/billing/webhook',
    origin: main,
    call: () => {
      const payload = JSON.stringify({ id: 'evt_forged', type: 'invoice.paid' });
      return webhook(
        main(),
        payload,
        stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }),
      );
    },
  },
  {
    name: 'an event where payments are off',
    code: 'payments_not_configured',
    path: '/api/billing/webhook',
    origin: () => bare.server.origin,
    call: () => {
      const { payload, signature } = signed({
        id: 'evt_bare',
        object: 'event',
        created: Math.floor(Date.now() / 1000),
        type: 'invoice.paid',
        data: { object: {} },
      });
      return webhook(bare.server.origin, payload, signature);
    },
  },
  {
    name: 'an event Stripe cannot be asked about',
    code: 'temporarily_unavailable',
    path: '/api/billing/webhook',
    origin: () => down.server.origin,
    call: async () => {
      await down.rider.postJson(CHECKOUT, MONTHLY); // links the customer before Stripe fails
      const object = { id: 'sub_down', object: 'subscription', customer: down.customer, status: 'active' };
      const { payload, signature } = signed({
        id: 'evt_down',
        object: 'event',
        created: Math.floor(Date.now() / 1000),
        type: 'customer.subscription.updated',
        data: { object },
      });
      return webhook(down.server.origin, payload, signature);
    },
  },
];

describe('every error of the settings and billing APIs is a problem document', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const response = await row.call();
    const [status, title] = [problemStatus(row.code), problemTitle(row.code)];
    const text = await response.text();
    expect(response.status, text.slice(0, 200)).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    if (row.allow) expect(response.headers.get('allow')).toBe(row.allow);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: `${row.origin()}/docs#${problemAnchor(row.code)}`,
      title,
      status,
      code: row.code,
      instance: row.path,
      ...row.fields,
    });
    expect(typeof body['detail'] === 'string' && body['detail'].length > 0).toBe(true);
    expect(typeof body['hint'] === 'string' && body['hint'].length > 0).toBe(true);
    expect(body).not.toHaveProperty('error');
    expect(body).not.toHaveProperty('error_description');
  });

  it('answers a failure nobody foresaw as internal_error, logged, without its message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await riderApi(new Request('https://rider.test/api/rider/me'), {
      session: () => Promise.reject(new Error('secret connection string')),
      catalog: { get: () => undefined },
      payments: accountPayments(undefined),
      checkTarget: (url) => checkWebhookUrl(url),
      db: db.store.db,
      origin: 'https://rider.test',
      docsUrl: 'https://docs.test/guide',
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const text = await response.text();
    expect(text).not.toMatch(/secret|Error:|at /);
    expect(JSON.parse(text)).toMatchObject({
      type: 'https://docs.test/guide#error-internal-error',
      code: 'internal_error',
      status: 500,
      instance: '/api/rider/me',
    });
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });

  it('has a row for every account and billing code', () => {
    const walked = new Set(ROWS.map((row) => row.code));
    expect(Object.keys(ACCOUNT_PROBLEM_CODES).filter((code) => !walked.has(code as AnyProblemCode))).toEqual(
      [],
    );
  });
});
