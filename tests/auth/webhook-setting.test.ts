/**
 * `POST /api/rider/webhook` from the rider's side: a public https URL is
 * stored with a fresh secret shown once, everything the alert job would
 * refuse is refused up front with the job's own reason, the secret never
 * shows up again, and a rider only ever changes their own row. DNS is a fake
 * lookup, so no test depends on the network.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, type HostLookup } from '../../src/rider/webhook-url.ts';
import { WEBHOOK_BODY_MAX_BYTES, WEBHOOK_URL_MAX_LENGTH } from '../../src/account/webhook-setting.ts';
import { findRiderById, type Rider as StoredRider } from '../../src/store/repositories/riders.ts';
import { signedUp, type Rider } from './support/grants.ts';
import { Agent } from './support/oauth.ts';
import { startAuthServer, type AuthServer } from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const ALICE: Rider = { email: 'alice.hooks@example.com', password: 'alice hook passphrase' };
const BOB: Rider = { email: 'bob.hooks@example.com', password: 'bob hook passphrase' };
const PUBLIC_HOST = 'hooks.example.com';
const PRIVATE_HOST = 'intranet.example.com';
/** Names the fake DNS knows; any other name does not resolve. */
const DNS: Record<string, readonly string[]> = {
  [PUBLIC_HOST]: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  [PRIVATE_HOST]: ['93.184.215.14', '10.1.2.3'],
};
const lookup: HostLookup = async (hostname) => {
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};
const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

let db: TestStore;
let server: AuthServer;
let alice: Agent;
let bob: Agent;
let aliceId: string;
let bobId: string;

async function riderId(agent: Agent): Promise<string> {
  const me = (await (await agent.fetch('/api/rider/me')).json()) as { rider: { id: string } };
  return me.rider.id;
}

const stored = async (id: string): Promise<StoredRider | undefined> => findRiderById(db.store.db, id);
const setWebhook = (agent: Agent, url: unknown, origin?: string | null) =>
  agent.postJson('/api/rider/webhook', { url }, origin);

beforeAll(async () => {
  db = await sqliteTestStore();
  server = await startAuthServer({ store: db.store, webhookUrl: { lookup } });
  [alice, bob] = await Promise.all([signedUp(server.origin, ALICE), signedUp(server.origin, BOB)]);
  [aliceId, bobId] = await Promise.all([riderId(alice), riderId(bob)]);
});
afterAll(async () => {
  await server?.close();
  await db?.dispose();
});

describe('setting the webhook', () => {
  it('stores a public https URL with a fresh 32-byte secret, answered once', async () => {
    const url = `https://${PUBLIC_HOST}/wos/alerts?token=abc`;
    const response = await setWebhook(alice, url);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { webhook_url: string; secret: string };
    expect(body.webhook_url).toBe(url);
    expect(body.secret).toMatch(SECRET_FORMAT);
    expect(Buffer.from(body.secret, 'base64url')).toHaveLength(32);
    expect((await stored(aliceId))?.webhook).toEqual({ url, secret: body.secret });

    const again = (await (await setWebhook(alice, `  ${url}  `)).json()) as { secret: string };
    expect(again.secret).toMatch(SECRET_FORMAT);
    expect(again.secret).not.toBe(body.secret);
    expect((await stored(aliceId))?.webhook).toEqual({ url, secret: again.secret });
  });

  it('shows the URL in /api/rider/me and never the secret', async () => {
    const secret = (await stored(aliceId))?.webhook?.secret ?? '';
    expect(secret).toMatch(SECRET_FORMAT);
    const text = await (await alice.fetch('/api/rider/me')).text();
    expect(JSON.parse(text)).toMatchObject({ webhook_url: `https://${PUBLIC_HOST}/wos/alerts?token=abc` });
    expect(text).not.toContain(secret);
    expect(text).not.toContain('secret');
    const bobsView = (await (await bob.fetch('/api/rider/me')).json()) as { webhook_url: unknown };
    expect(bobsView.webhook_url).toBeNull();
  });

  it('stores the normalised URL the alert job will call', async () => {
    const response = await setWebhook(bob, `HTTPS://${PUBLIC_HOST.toUpperCase()}:443/a/../hook`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { webhook_url: string; secret: string };
    expect(body.webhook_url).toBe(`https://${PUBLIC_HOST}/hook`);
    expect((await stored(bobId))?.webhook?.url).toBe(`https://${PUBLIC_HOST}/hook`);
  });
});

describe('refusals', () => {
  const refusedWith = async (agent: Agent, url: unknown, reason: RegExp) => {
    const before = await stored(aliceId);
    const response = await setWebhook(agent, url);
    expect(response.status, String(url)).toBe(400);
    const body = (await response.json()) as { code: string; detail: string };
    expect(body.code).toBe('invalid_webhook_url');
    expect(body.detail).toMatch(reason);
    expect(await stored(aliceId)).toEqual(before);
  };

  it('refuses plain http, credentials and other schemes', async () => {
    await refusedWith(alice, `http://${PUBLIC_HOST}/hook`, /must use https/);
    await refusedWith(alice, 'http://127.0.0.1:8080/hook', /must use https/);
    await refusedWith(alice, `https://user:pw@${PUBLIC_HOST}/hook`, /user name or password/);
    await refusedWith(alice, 'javascript:alert(1)', /must use https/);
    await refusedWith(alice, 'not a url', /not a valid URL/);
  });

  it('refuses hosts that are or resolve to private, loopback or link-local addresses', async () => {
    await refusedWith(alice, `https://${PRIVATE_HOST}/hook`, /not a public address/);
    await refusedWith(alice, 'https://169.254.169.254/latest/meta-data', /not a public address/);
    await refusedWith(alice, 'https://[::1]/hook', /not a public address/);
    await refusedWith(alice, 'https://localhost/hook', /not a public address/);
    await refusedWith(alice, 'https://0x7f.1/hook', /not a public address/);
    await refusedWith(alice, 'https://unknown.example.net/hook', /does not resolve/);
  });

  it('refuses a URL longer than the limit, and bodies that are not { url }', async () => {
    const long = `https://${PUBLIC_HOST}/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}`;
    await refusedWith(alice, long, new RegExp(`longer than ${WEBHOOK_URL_MAX_LENGTH}`));
    await refusedWith(alice, 42, /send \{ "url"/);
    await refusedWith(alice, '', /send \{ "url"/);
    expect((await alice.postJson('/api/rider/webhook', {})).status).toBe(400);
    expect((await alice.postJson('/api/rider/webhook', [])).status).toBe(400);
  });

  it('refuses an oversized body (413), a non-JSON type (415), bad JSON (400) and GET (405)', async () => {
    const before = await stored(aliceId);
    const post = (body: string, type = 'application/json') =>
      alice.fetch('/api/rider/webhook', { method: 'POST', headers: { 'content-type': type }, body });
    const huge = JSON.stringify({ url: `https://${PUBLIC_HOST}/`, pad: 'x'.repeat(WEBHOOK_BODY_MAX_BYTES) });
    expect((await post(huge)).status).toBe(413);
    // Chunked, without Content-Length: the limit is counted on the stream itself.
    const chunk = new TextEncoder().encode(' '.repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const chunked = await alice.fetch('/api/rider/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await post(`url=https://${PUBLIC_HOST}/`, 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post(`{"url": "https://${PUBLIC_HOST}/"`)).status).toBe(400);
    const get = await alice.fetch('/api/rider/webhook');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await stored(aliceId)).toEqual(before);
  });

  it('refuses a POST from another site, without Origin, or without a session', async () => {
    const before = await stored(aliceId);
    const url = `https://${PUBLIC_HOST}/evil`;
    expect((await setWebhook(alice, url, 'https://evil.example')).status).toBe(403);
    expect((await setWebhook(alice, null, 'https://evil.example')).status).toBe(403);
    expect((await setWebhook(alice, url, null)).status).toBe(403);
    expect((await setWebhook(new Agent(server.origin), url)).status).toBe(401);
    expect(await stored(aliceId)).toEqual(before);
  });

  it("changes only the session's own rider, whatever the body names", async () => {
    const aliceBefore = await stored(aliceId);
    expect(aliceBefore?.webhook).not.toBeNull();
    const response = await bob.postJson('/api/rider/webhook', {
      url: `https://${PUBLIC_HOST}/bob`,
      rider_id: aliceId,
      id: aliceId,
    });
    expect(response.status).toBe(200);
    expect((await stored(bobId))?.webhook?.url).toBe(`https://${PUBLIC_HOST}/bob`);
    expect((await bob.postJson('/api/rider/webhook', { url: null, rider_id: aliceId })).status).toBe(200);
    expect((await stored(bobId))?.webhook).toBeNull();
    expect(await stored(aliceId)).toEqual(aliceBefore);
  });

  it('answers any string exactly as the alert job would judge it, never with a 5xx', async () => {
    const urls = fc.oneof(
      fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true, withFragments: true }),
      fc
        .constantFrom(PUBLIC_HOST, PRIVATE_HOST, '10.0.0.1', '[fe80::1]', '8.8.8.8')
        .map((h) => `https://${h}/`),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(urls, async (url) => {
        const response = await setWebhook(bob, url);
        const trimmed = url.trim();
        const expected = trimmed !== '' && (await checkWebhookUrl(trimmed, { lookup })).ok;
        expect(response.status, url).toBe(expected ? 200 : 400);
      }),
      { numRuns: 60 },
    );
    await setWebhook(bob, null);
  });
});

describe('removing the webhook', () => {
  it('clears the URL and the secret, and /api/rider/me says so', async () => {
    const response = await setWebhook(alice, null);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ webhook_url: null });
    expect((await stored(aliceId))?.webhook).toBeNull();
    const me = (await (await alice.fetch('/api/rider/me')).json()) as { webhook_url: unknown };
    expect(me.webhook_url).toBeNull();
    expect((await setWebhook(alice, null)).status).toBe(200);
  });
});
