/**
 * The page a rider sees when the authorization server refuses the assistant
 * itself: which refusals go there (a browser loading authorize), which keep
 * their JSON (programs), and the reason each of the CIMD plugin's messages
 * maps to. The browser run of the page is in pages.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONNECT_ERROR_PATH,
  REFUSAL_MESSAGES,
  REFUSAL_REASONS,
  refusalReasonOf,
  refusalRedirect,
} from '../../src/auth/client-refusal.ts';
import { metadataOf } from './support/grants.ts';
import { authorizeUrl, type AsMetadata } from './support/oauth.ts';
import { CIMD_HOST, startAuthServer, type AuthServer } from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const ORIGIN = 'https://wind.example.org';
const NAVIGATE = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate' };

const refusal = (error: string, description: string, status = 400) =>
  Response.json({ error, error_description: description }, { status });

describe('refusalReasonOf', () => {
  it.each([
    ['invalid_client', 'client_id URL must not target a private or reserved address', 'private_address'],
    ['invalid_client', "client_id URL is not permitted by the server's fetch policy", 'private_address'],
    [
      'invalid_client',
      'Failed to fetch metadata document (network error or redirect blocked)',
      'unreachable',
    ],
    ['invalid_client', 'Metadata document fetch timed out after 5000ms', 'unreachable'],
    ['invalid_client', 'Metadata document fetch must not follow redirects', 'unreachable'],
    ['invalid_client', 'Metadata document fetch returned HTTP 404', 'http_error'],
    ['invalid_client', 'Metadata document is not valid JSON', 'invalid_document'],
    ['invalid_client', 'Metadata document must be JSON (got Content-Type "text/html")', 'invalid_document'],
    ['invalid_client', 'Metadata document exceeds 5KB size limit', 'invalid_document'],
    [
      'invalid_client',
      'redirect_uris must be a non-empty array of absolute HTTP(S) or private-use URIs',
      'invalid_document',
    ],
    ['invalid_client', 'client_id: Invalid input: expected string, received undefined', 'invalid_document'],
    ['invalid_client', 'client_id URL must use HTTPS', 'invalid_client_id'],
    ['invalid_client', 'client_id is required', 'invalid_client_id'],
    ['temporarily_unavailable', 'metadata document fetch is within the per-client minimum interval', 'busy'],
    ['invalid_redirect', 'invalid redirect uri', 'redirect_mismatch'],
    ['invalid_request', 'something else entirely', 'refused'],
  ] as const)('%s "%s" → %s', (error, description, reason) => {
    expect(refusalReasonOf(error, description)).toBe(reason);
  });

  it('always names a reason the page has a sentence for', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (error, description) => {
        const reason = refusalReasonOf(error, description);
        expect(REFUSAL_REASONS).toContain(reason);
        expect(REFUSAL_MESSAGES[reason].length).toBeGreaterThan(40);
      }),
    );
  });
});

describe('refusalRedirect', () => {
  const authorize = (headers: Record<string, string>, clientId = 'https://10.0.0.1/c.json') =>
    new Request(`${ORIGIN}/api/auth/oauth2/authorize?client_id=${encodeURIComponent(clientId)}`, { headers });

  it("sends a browser loading authorize to the site's page, with the reason and the details", async () => {
    const response = await refusalRedirect(
      authorize(NAVIGATE),
      refusal('invalid_client', 'client_id URL must not target a private or reserved address'),
      ORIGIN,
    );
    expect(response?.status).toBe(303);
    const location = new URL(response?.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(`${ORIGIN}${CONNECT_ERROR_PATH}`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      reason: 'private_address',
      error: 'invalid_client',
      error_description: 'client_id URL must not target a private or reserved address',
      client_id: 'https://10.0.0.1/c.json',
    });
    expect(response?.headers.get('cache-control')).toBe('no-store');
  });

  it('counts a plain text/html request without fetch metadata as a browser', async () => {
    const response = await refusalRedirect(
      authorize({ accept: 'text/html' }),
      refusal('invalid_client', 'x'),
      ORIGIN,
    );
    expect(response?.status).toBe(303);
  });

  it('leaves programs, page scripts, successes and non-JSON answers alone', async () => {
    const bad = () => refusal('invalid_client', 'Metadata document fetch returned HTTP 404');
    expect(await refusalRedirect(authorize({ accept: 'application/json' }), bad(), ORIGIN)).toBeUndefined();
    expect(
      await refusalRedirect(authorize({ accept: 'text/html', 'sec-fetch-mode': 'cors' }), bad(), ORIGIN),
    ).toBeUndefined();
    expect(
      await refusalRedirect(authorize(NAVIGATE), Response.json({ url: '/login' }), ORIGIN),
    ).toBeUndefined();
    expect(
      await refusalRedirect(authorize(NAVIGATE), new Response('<p>nope</p>', { status: 400 }), ORIGIN),
    ).toBeUndefined();
    const post = new Request(`${ORIGIN}/api/auth/oauth2/authorize`, { method: 'POST', headers: NAVIGATE });
    expect(await refusalRedirect(post, bad(), ORIGIN)).toBeUndefined();
  });

  it("adds the reason and the client's ID to the provider's own redirects to the page, and only to those", async () => {
    const request = authorize({ accept: 'application/json' }, 'my-client');
    const provider = `${ORIGIN}${CONNECT_ERROR_PATH}?error=invalid_redirect&error_description=invalid+redirect+uri`;
    const expected = {
      reason: 'redirect_mismatch',
      error: 'invalid_redirect',
      error_description: 'invalid redirect uri',
      client_id: 'my-client',
    };
    const redirected = await refusalRedirect(
      request,
      new Response(null, { status: 302, headers: { Location: provider, 'set-cookie': 'a=b' } }),
      ORIGIN,
    );
    expect(redirected?.status).toBe(302);
    expect(redirected?.headers.get('set-cookie')).toBe('a=b');
    expect(Object.fromEntries(new URL(redirected?.headers.get('location') ?? '').searchParams)).toEqual(
      expected,
    );
    const fetched = await refusalRedirect(request, Response.json({ redirect: true, url: provider }), ORIGIN);
    const body = (await fetched?.json()) as { redirect: boolean; url: string };
    expect(body.redirect).toBe(true);
    expect(Object.fromEntries(new URL(body.url).searchParams)).toEqual(expected);
    for (const elsewhere of [`${ORIGIN}/login?x=1`, `https://evil.example${CONNECT_ERROR_PATH}?error=x`]) {
      const response = new Response(null, { status: 302, headers: { Location: elsewhere } });
      expect(await refusalRedirect(request, response, ORIGIN)).toBeUndefined();
      expect(
        await refusalRedirect(request, Response.json({ redirect: true, url: elsewhere }), ORIGIN),
      ).toBeUndefined();
    }
  });

  it('keeps whatever a stranger sends short, on our own origin', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 2000 }),
        fc.string({ maxLength: 2000 }),
        async (clientId, text) => {
          const response = await refusalRedirect(
            authorize(NAVIGATE, clientId),
            refusal('invalid_client', text),
            ORIGIN,
          );
          const location = new URL(response?.headers.get('location') ?? '');
          expect(location.origin).toBe(ORIGIN);
          for (const value of location.searchParams.values()) expect(value.length).toBeLessThanOrEqual(300);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('the authorization server', () => {
  let stored: TestStore;
  let server: AuthServer;
  let metadata: AsMetadata;
  beforeAll(async () => {
    stored = await sqliteTestStore();
    server = await startAuthServer({ store: stored.store, rateLimit: false });
    for (const path of ['/no-name.json', '/no-name-program.json'])
      server.cimdDocs.set(path, { redirect_uris: ['http://127.0.0.1:9/cb'] });
    metadata = await metadataOf(server.origin);
  });
  afterAll(async () => {
    await server?.close();
    await stored?.dispose();
  });

  const load = (clientId: string, headers: Record<string, string>) =>
    server.service.endpoints(
      new Request(authorizeUrl(metadata, { clientId, redirectUri: 'http://127.0.0.1:9/cb' }), { headers }),
      { address: '127.0.0.1' },
    );

  it.each([
    ['https://10.1.2.3/client.json', 'private_address'],
    [`https://${CIMD_HOST}/missing.json`, 'http_error'],
    ['https://unreachable.example.test/client.json', 'unreachable'],
    [`https://${CIMD_HOST}/no-name.json`, 'invalid_document'],
  ])('sends the browser to the page for %s (%s), and a program still gets JSON', async (clientId, reason) => {
    const browser = await load(clientId, NAVIGATE);
    expect(browser?.status).toBe(303);
    const location = new URL(browser?.headers.get('location') ?? '');
    expect(location.pathname).toBe(CONNECT_ERROR_PATH);
    expect(location.searchParams.get('reason')).toBe(reason);
    expect(location.searchParams.get('client_id')).toBe(clientId);
    // Another ID of the same kind: the plugin will not fetch one ID twice within its minimum interval.
    const program = await load(clientId.replace('.json', '-program.json'), { accept: 'application/json' });
    expect(program?.status).toBe(400);
    expect(await program?.json()).toMatchObject({ error: 'invalid_client' });
  });

  it("sends the provider's own error redirects to the page too", async () => {
    const answer = await load('not-a-registered-client', { accept: 'application/json' });
    const body = (await answer?.json()) as { url?: string };
    const url = new URL(body.url ?? '');
    expect(url.pathname).toBe(CONNECT_ERROR_PATH);
    expect(url.searchParams.get('client_id')).toBe('not-a-registered-client');
    expect(url.searchParams.get('reason')).toBe('invalid_client_id');
  });
});
