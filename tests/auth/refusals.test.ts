/**
 * What the authorization server and `/mcp/rider` must refuse on the OAuth
 * side: requests without PKCE, wrong verifiers, inexact redirect URIs,
 * reused codes, tokens for another resource or origin, expired tokens,
 * revoked refresh tokens, and calls lacking a scope.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONNECT_ERROR_PATH } from '../../src/auth/client-refusal.ts';
import { registerClient, metadataOf, signedUp, grant, tokensFor, type Rider } from './support/grants.ts';
import { Agent, authorizeUrl, callRider, nextUrl, pkce, postForm, type AsMetadata } from './support/oauth.ts';
import {
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const RIDER: Rider = { email: 'refusals@example.com', password: 'refusals passphrase' };

let db: TestStore;
let server: AuthServer;
let shortLived: AuthServer;
let callback: CallbackServer;
let metadata: AsMetadata;
let clientId: string;
let agent: Agent;

beforeAll(async () => {
  db = await sqliteTestStore();
  [server, shortLived, callback] = await Promise.all([
    startAuthServer({ store: db.store }),
    startAuthServer({ store: db.store, accessTokenTtlS: 1 }),
    startCallbackServer(),
  ]);
  metadata = await metadataOf(server.origin);
  clientId = await registerClient(metadata, callback.redirectUri);
  agent = await signedUp(server.origin, RIDER);
});
afterAll(async () => {
  await Promise.all([server?.close(), shortLived?.close(), callback?.close()]);
  await db?.dispose();
});

const options = () => ({ clientId, redirectUri: callback.redirectUri });
const resource = () => `${server.origin}/mcp/rider`;

/** Where authorize sends the signed-in rider's browser for these parameters. */
async function authorizeLanding(params: Parameters<typeof authorizeUrl>[1]): Promise<URL | undefined> {
  return nextUrl(
    await agent.fetch(authorizeUrl(metadata, params), { headers: { accept: 'text/html' } }),
    server.origin,
  );
}

describe('authorization requests', () => {
  it('requires PKCE with S256', async () => {
    const none = await authorizeLanding({ ...options(), resource: resource(), challenge: null });
    expect(none?.searchParams.get('error')).toBe('invalid_request');
    const plain = await authorizeLanding({
      ...options(),
      resource: resource(),
      challenge: 'a'.repeat(43),
      method: 'plain',
    });
    expect(plain?.searchParams.get('error')).toBe('invalid_request');
    expect(none?.searchParams.has('code') || plain?.searchParams.has('code')).toBe(false);
  });

  it('never redirects to a URI that is not exactly the registered one', async () => {
    const elsewhere = [
      `${callback.redirectUri}/other`,
      `${callback.redirectUri}?x=1`,
      callback.redirectUri.replace('127.0.0.1', 'localhost'),
      'https://evil.example/callback',
    ];
    for (const redirectUri of elsewhere) {
      const landed = await authorizeLanding({ clientId, redirectUri, resource: resource() });
      expect(landed?.origin, redirectUri).toBe(server.origin);
      // Our page explains it to the rider instead of better-auth's bare error page.
      expect(landed?.pathname, `${redirectUri} -> ${landed?.href}`).toBe(CONNECT_ERROR_PATH);
      expect(landed?.searchParams.get('error')).toBe('invalid_redirect');
      expect(landed?.searchParams.get('reason')).toBe('redirect_mismatch');
      expect(landed?.searchParams.get('client_id')).toBe(clientId);
    }
    // RFC 8252 §7.3: a native client's loopback redirect may use any port; the path must still match.
    const otherPort = await authorizeLanding({
      clientId,
      redirectUri: 'http://127.0.0.1:1/callback',
      resource: resource(),
    });
    expect(otherPort?.pathname).toBe('/consent');
  });

  it('refuses a resource it does not protect (RFC 8707 invalid_target)', async () => {
    const landed = await authorizeLanding({ ...options(), resource: 'https://evil.example/mcp' });
    expect(landed?.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('the token endpoint', () => {
  async function code(): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkce();
    const url = authorizeUrl(metadata, { ...options(), resource: resource(), challenge });
    const landed = await nextUrl(await agent.fetch(url, { headers: { accept: 'text/html' } }), server.origin);
    return { code: landed?.searchParams.get('code') ?? '', verifier };
  }
  const exchange = (fields: Record<string, string>) =>
    postForm(metadata.token_endpoint, {
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      resource: resource(),
      ...fields,
    });

  it('refuses a wrong code_verifier and a missing one', async () => {
    await tokensFor(agent, metadata, RIDER, options()); // consent on file: later codes come straight back
    const first = await code();
    const wrong = await exchange({ code: first.code, code_verifier: pkce().verifier });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    const second = await code();
    expect((await exchange({ code: second.code })).status).toBe(400);
  });

  it('accepts a code once', async () => {
    const { code: value, verifier } = await code();
    expect((await exchange({ code: value, code_verifier: verifier })).status).toBe(200);
    const again = await exchange({ code: value, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a redirect_uri that differs from the authorization request', async () => {
    const { code: value, verifier } = await code();
    const response = await exchange({
      code: value,
      code_verifier: verifier,
      redirect_uri: `${callback.redirectUri}/x`,
    });
    expect(response.status).toBe(400);
  });

  it('refuses a revoked refresh token (RFC 7009)', async () => {
    const tokens = await tokensFor(agent, metadata, RIDER, options());
    const revoke = await postForm(metadata.revocation_endpoint, {
      token: tokens.refresh_token,
      token_type_hint: 'refresh_token',
      client_id: clientId,
    });
    expect(revoke.status).toBe(200);
    const refresh = await postForm(metadata.token_endpoint, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refresh.status).toBe(400);
  });
});

describe('/mcp/rider', () => {
  const refusedAsInvalid = async (response: Response, origin = server.origin) => {
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp/rider"`,
    );
  };

  it('refuses garbage, a token of another origin, and a token issued without a resource', async () => {
    await refusedAsInvalid(await callRider(server.origin, 'not-a-token'));
    // Same server under another name: another issuer and audience (http://localhost:PORT/…).
    const elsewhere = server.origin.replace('127.0.0.1', 'localhost');
    const otherMetadata = await metadataOf(elsewhere);
    const otherClient = await registerClient(otherMetadata, callback.redirectUri);
    const other = { email: 'elsewhere@example.com', password: RIDER.password };
    const otherAgent = await signedUp(elsewhere, other);
    const foreign = await tokensFor(otherAgent, otherMetadata, other, {
      clientId: otherClient,
      redirectUri: callback.redirectUri,
    });
    expect((await callRider(elsewhere, foreign.access_token)).status).toBe(200);
    await refusedAsInvalid(await callRider(server.origin, foreign.access_token));
    const noResource = await grant(agent, metadata, RIDER, { ...options(), resource: null });
    const { access_token } = (await noResource.json()) as { access_token?: string };
    if (access_token) await refusedAsInvalid(await callRider(server.origin, access_token));
  });

  it('refuses an expired access token', async () => {
    const shortMetadata = await metadataOf(shortLived.origin);
    const short = { email: 'short@example.com', password: RIDER.password };
    const shortAgent = await signedUp(shortLived.origin, short);
    const shortClient = await registerClient(shortMetadata, callback.redirectUri);
    const tokens = await tokensFor(shortAgent, shortMetadata, short, {
      clientId: shortClient,
      redirectUri: callback.redirectUri,
    });
    expect(tokens.expires_in).toBe(1);
    expect((await callRider(shortLived.origin, tokens.access_token)).status).toBe(200);
    // 2.1 s later on the server's clock (it runs in this process), without waiting for them.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2100 });
    try {
      await refusedAsInvalid(await callRider(shortLived.origin, tokens.access_token), shortLived.origin);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 403 insufficient_scope naming the scopes to ask for', async () => {
    const tokens = await tokensFor(agent, metadata, RIDER, { ...options(), scope: 'rider:read' });
    expect((await callRider(server.origin, tokens.access_token, 'rider:read')).status).toBe(200);
    const response = await callRider(server.origin, tokens.access_token, 'rider:read rider:write');
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="rider:read rider:write"');
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('never lets an unknown Host pick the issuer', async () => {
    const answer = await server.service.endpoints(
      new Request('http://evil.example/.well-known/oauth-protected-resource'),
    );
    expect(answer?.status).toBe(421);
    expect(await server.service.authenticate(new Request('http://evil.example/mcp/rider'))).toMatchObject({
      status: 421,
    });
  });
});

describe('metadata and token endpoints for browser-based clients', () => {
  it('answers CORS preflights and reads without cookies, and only GET on metadata', async () => {
    const prm = `${server.origin}/.well-known/oauth-protected-resource/mcp/rider`;
    const preflight = await fetch(metadata.token_endpoint, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const read = await fetch(prm, { headers: { origin: 'https://inspector.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(prm, { method: 'POST' })).status).toBe(405);
    const signIn = await fetch(`${server.origin}/api/auth/sign-in/email`, { method: 'OPTIONS' });
    expect(signIn.headers.get('access-control-allow-origin')).toBeNull();
  });
});
