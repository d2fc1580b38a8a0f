/**
 * What the rider's side must refuse: one rider touching another's
 * connections, cross-site POSTs, the endpoints we keep closed, guessing
 * passwords fast, and CIMD documents that lie. Strings built to break SQL or
 * markup are stored verbatim or refused with a 4xx, never a 500.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataOf, registerClient, signedUp, tokensFor, type Rider } from './support/grants.ts';
import { Agent, authorizeUrl, callRider, nextUrl, type AsMetadata, type Tokens } from './support/oauth.ts';
import {
  CIMD_HOST,
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const ALICE: Rider = { email: 'alice@example.com', password: 'alice passphrase' };
const BOB: Rider = { email: 'bob@example.com', password: 'bob passphrase!' };

let db: TestStore;
let server: AuthServer;
let callback: CallbackServer;
let metadata: AsMetadata;
let clientId: string;
let alice: Agent;
let bob: Agent;
let aliceTokens: Tokens;

beforeAll(async () => {
  db = await sqliteTestStore();
  [server, callback] = await Promise.all([startAuthServer({ store: db.store }), startCallbackServer()]);
  metadata = await metadataOf(server.origin);
  clientId = await registerClient(metadata, callback.redirectUri);
  [alice, bob] = await Promise.all([signedUp(server.origin, ALICE), signedUp(server.origin, BOB)]);
  aliceTokens = await tokensFor(alice, metadata, ALICE, { clientId, redirectUri: callback.redirectUri });
});
afterAll(async () => {
  await Promise.all([server?.close(), callback?.close()]);
  await db?.dispose();
});

const disconnectPath = (id: string) => `/api/rider/connections/${encodeURIComponent(id)}/disconnect`;
const aliceStillConnected = async () =>
  expect((await callRider(server.origin, aliceTokens.access_token)).status).toBe(200);

describe('connections', () => {
  it("lets no rider see or disconnect another rider's assistant", async () => {
    const bobsView = (await (await bob.fetch('/api/rider/me')).json()) as { connections: unknown[] };
    expect(bobsView.connections).toEqual([]);
    const attempt = await bob.postJson(disconnectPath(clientId), {});
    expect(attempt.status).toBe(404);
    await aliceStillConnected();
  });

  it('refuses a disconnect from another site or with no Origin, and any call without a session', async () => {
    expect((await alice.postJson(disconnectPath(clientId), {}, 'https://evil.example')).status).toBe(403);
    expect((await alice.postJson(disconnectPath(clientId), {}, null)).status).toBe(403);
    expect((await new Agent(server.origin).postJson(disconnectPath(clientId), {})).status).toBe(401);
    expect((await fetch(`${server.origin}/api/rider/me`)).status).toBe(401);
    await aliceStillConnected();
  });

  it('refuses sign-in and consent POSTs from another site (better-auth trustedOrigins)', async () => {
    const signIn = await new Agent(server.origin).postJson(
      '/api/auth/sign-in/email',
      ALICE,
      'https://evil.example',
    );
    expect(signIn.status).toBe(403);
    const consent = await alice.postJson(
      '/api/auth/oauth2/consent',
      { accept: true, oauth_query: 'a=1' },
      'https://evil.example',
    );
    expect(consent.status).toBe(403);
  });
});

describe('closed endpoints', () => {
  it.each([
    ['GET', '/api/auth/token'],
    ['POST', '/api/auth/oauth2/create-client'],
    ['GET', '/api/auth/oauth2/get-clients'],
    ['POST', '/api/auth/oauth2/update-client'],
    ['GET', '/api/auth/oauth2/get-consents'],
    ['POST', '/api/auth/oauth2/delete-consent'],
    ['GET', '/api/auth/admin/oauth2/resources'],
  ])('%s %s answers 404 even with a session', async (method, path) => {
    const init =
      method === 'GET' ? {} : { method, headers: { 'content-type': 'application/json' }, body: '{}' };
    expect((await alice.fetch(path, init)).status).toBe(404);
  });
});

describe('hostile input', () => {
  it('stores quotes, SQL and markup verbatim in emails, passwords and client names', async () => {
    const rider = { email: "o'brien+x@example.com", password: `' OR '1'='1'; DROP TABLE "user"; --<script>` };
    const agent = await signedUp(server.origin, rider);
    const me = (await (await agent.fetch('/api/rider/me')).json()) as { rider: { email: string } };
    expect(me.rider.email).toBe(rider.email);
    expect((await new Agent(server.origin).postJson('/api/auth/sign-in/email', rider)).status).toBe(200);
    const guess = { email: rider.email, password: "' OR '1'='1" };
    expect((await new Agent(server.origin).postJson('/api/auth/sign-in/email', guess)).status).toBe(401);
    const name = `Robert'); DROP TABLE "oauthClient";-- <img src=x onerror=alert(1)>`;
    const id = await registerClient(metadata, callback.redirectUri, name);
    const shown = await (
      await alice.fetch(`/api/auth/oauth2/public-client?client_id=${encodeURIComponent(id)}`)
    ).json();
    expect(shown).toMatchObject({ client_name: name });
    const { rows } = await sql<{ n: number }>`select count(*) as n from "user"`.execute(db.store.db);
    expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(3);
  });

  it('refuses malformed emails with a 400', async () => {
    for (const email of [`x@example.com'; DROP TABLE "user"; --`, '<script>@example.com', 'no-at-sign']) {
      const response = await new Agent(server.origin).postJson('/api/auth/sign-up/email', {
        email,
        password: 'long enough pw',
        name: 'x',
      });
      expect(response.status, email).toBe(400);
    }
  });

  it('round-trips any client name through DCR, or refuses it with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }), async (name) => {
        const response = await fetch(metadata.registration_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_name: name,
            redirect_uris: [callback.redirectUri],
            token_endpoint_auth_method: 'none',
          }),
        });
        expect(response.status).toBeLessThan(500);
        if (response.status !== 201) return;
        expect(((await response.json()) as { client_name: string }).client_name).toBe(name);
      }),
      { numRuns: 40 },
    );
  });
});

describe('sign-in rate limit', () => {
  it('counts per client address, whatever forwarding headers the caller sends', async () => {
    const limited = await startAuthServer({ store: db.store, rateLimit: true });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await fetch(`${limited.origin}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: limited.origin,
            'x-forwarded-for': `10.0.0.${attempt}`,
            'x-wos-client': `10.0.1.${attempt}`,
          },
          body: JSON.stringify({ email: ALICE.email, password: 'wrong password!' }),
        });
        statuses.push(response.status);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('client ID metadata documents', () => {
  const landing = async (id: string) =>
    nextUrl(
      await alice.fetch(
        authorizeUrl(metadata, {
          clientId: id,
          redirectUri: callback.redirectUri,
          resource: `${server.origin}/mcp/rider`,
        }),
        {
          headers: { accept: 'text/html' },
        },
      ),
      server.origin,
    );

  it('refuses a document whose client_id is not its own URL, and http client ids', async () => {
    server.cimdDocs.set('/liar.json', {
      client_id: `https://${CIMD_HOST}/other.json`,
      client_name: 'Liar',
      redirect_uris: [callback.redirectUri],
      token_endpoint_auth_method: 'none',
    });
    const liar = await alice.fetch(
      authorizeUrl(metadata, {
        clientId: `https://${CIMD_HOST}/liar.json`,
        redirectUri: callback.redirectUri,
      }),
      { headers: { accept: 'text/html' } },
    );
    expect(liar.status).toBeGreaterThanOrEqual(400);
    const plain = await landing(`http://${CIMD_HOST}/client.json`);
    expect(plain?.searchParams.has('code')).toBe(false);
    expect(plain?.href.startsWith(callback.redirectUri)).toBe(false);
  });
});

describe('signing out of the website', () => {
  it('ends the session but leaves connected assistants working until disconnected', async () => {
    expect((await alice.postJson('/api/auth/sign-out', {})).status).toBe(200);
    expect((await alice.fetch('/api/rider/me')).status).toBe(401);
    await aliceStillConnected();
    const refresh = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: aliceTokens.refresh_token ?? '',
        client_id: clientId,
      }),
    });
    expect(refresh.status).toBe(200);
  });
});
