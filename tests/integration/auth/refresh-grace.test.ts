/**
 * Issue 10: an assistant whose access token expired runs three tool calls at
 * once, each after a refresh with the same refresh token. Inside the reuse
 * interval all three get the same new tokens and the grant lives on; a reuse
 * after it still revokes the whole grant. On both engines, in one process and
 * across two (two auth services over one store), plus the grace layer alone
 * with a scripted token endpoint.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_TOKEN_TTL_S,
  REFRESH_REUSE_INTERVAL_S,
  riderResourceFor,
} from '../../../src/rider/access-policy.ts';
import { createRefreshGrace, REFRESH_RACE_WAIT_MS } from '../../../src/auth/refresh-grace.ts';
import { createAuthService, type AuthService } from '../../../src/auth/auth-service.ts';
import { ensureGeneratedData } from '../../../scripts/data/generated.ts';
import { postgresUnavailable } from '../../store/postgres-server.ts';
import { testDeps } from '../../support/mcp-deps.ts';
import { metadataOf, registerClient, tokensFor } from '../../auth/support/grants.ts';
import { Agent, type AsMetadata, type Tokens } from '../../auth/support/oauth.ts';
import { startAuthServer, TEST_AUTH_CONFIG, type AuthServer } from '../../auth/support/server.ts';
import { postgresTestStore, sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
const postgresSkip = await postgresUnavailable();
const ENGINES = [
  { engine: 'sqlite', open: sqliteTestStore, skip: null },
  { engine: 'postgres', open: postgresTestStore, skip: postgresSkip },
] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)('parallel refreshes on $engine', ({ engine, open, skip }) => {
  describe.skipIf(skip !== null)(skip ?? engine, () => {
    let stored: TestStore;
    let server: AuthServer;
    let worker: AuthService;
    let metadata: AsMetadata;
    let clientId: string;
    let riderCount = 0;

    beforeAll(async () => {
      await ensureGeneratedData();
      stored = await open();
      server = await startAuthServer({ store: stored.store, rateLimit: false, mcp: testDeps() });
      // Another function instance over the same store, as on a platform that runs several.
      worker = createAuthService({
        store: stored.store,
        config: TEST_AUTH_CONFIG,
        rateLimit: false,
        cimdFetch: () => Promise.reject(new Error('no CIMD here')),
      });
      metadata = await metadataOf(server.origin);
      clientId = await registerClient(metadata, REDIRECT, 'Parallel assistant');
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await stored?.dispose();
    });
    afterEach(() => vi.useRealTimers());

    /**
     * A signed-up rider's tokens, with the access token already expired: the clock (Date only,
     * so sockets and timers run as usual) moves past its lifetime and stands there.
     */
    async function expiredGrant(): Promise<Tokens> {
      riderCount += 1;
      const rider = {
        email: `parallel-${riderCount}@example.org`,
        password: 'correct horse battery',
        signUp: true,
      };
      const tokens = await tokensFor(new Agent(server.origin), metadata, rider, {
        clientId,
        redirectUri: REDIRECT,
        scope: 'rider:read rider:write offline_access',
      });
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_S + 60) * 1000);
      const refused = await fetch(`${server.origin}/mcp/rider`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(refused.status).toBe(401);
      return tokens;
    }

    function refreshRequest(refreshToken: string | undefined): Request {
      return new Request(metadata.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken ?? '',
          client_id: clientId,
          resource: riderResourceFor(server.origin),
        }),
      });
    }

    /** A refresh through the server's socket, or through the second worker in-process. */
    async function refresh(refreshToken: string | undefined, via: 'server' | 'worker' = 'server') {
      const response =
        via === 'server'
          ? await fetch(refreshRequest(refreshToken))
          : ((await worker.endpoints(refreshRequest(refreshToken), { address: '127.0.0.1' })) ??
            new Response(null, { status: 404 }));
      return { status: response.status, body: (await response.json()) as Tokens & { error?: string } };
    }

    /** One tool call at the rider address with the given access token, as an assistant makes it. */
    async function toolCall(accessToken: string): Promise<unknown> {
      const client = new Client({ name: 'parallel-assistant', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp/rider`), {
          requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
        }),
      );
      try {
        const result = await client.callTool({ name: 'get_my_watchlist', arguments: {} });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        return result.structuredContent;
      } finally {
        await client.close();
      }
    }

    it.each(['server', 'worker'] as const)(
      'three parallel tool calls, each after a refresh with the same token, all succeed (third via %s)',
      async (third) => {
        const tokens = await expiredGrant();
        const vias = ['server', 'server', third] as const;
        const results = await Promise.all(
          vias.map(async (via) => {
            const answer = await refresh(tokens.refresh_token, via);
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
            await toolCall(answer.body.access_token);
            return answer.body;
          }),
        );
        // One rotation: every call holds the same new pair, different from the old one.
        expect(new Set(results.map((r) => r.refresh_token)).size).toBe(1);
        expect(new Set(results.map((r) => r.access_token)).size).toBe(1);
        expect(results[0]?.refresh_token).not.toBe(tokens.refresh_token);
        // No new sign-in: the grant lives on, its new refresh token rotates again.
        const next = await refresh(results[0]?.refresh_token);
        expect(next.status, JSON.stringify(next.body)).toBe(200);
        await toolCall(next.body.access_token);
      },
      30_000,
    );

    it('a reuse within the interval gets the same tokens; one after it revokes the whole grant', async () => {
      const tokens = await expiredGrant();
      const first = await refresh(tokens.refresh_token);
      expect(first.status).toBe(200);
      const again = await refresh(tokens.refresh_token, 'worker');
      expect(again.status).toBe(200);
      expect(again.body.refresh_token).toBe(first.body.refresh_token);
      expect(again.body.expires_in).toBeLessThanOrEqual(first.body.expires_in);
      const latest = await refresh(first.body.refresh_token);
      expect(latest.status).toBe(200);

      vi.setSystemTime(Date.now() + (REFRESH_REUSE_INTERVAL_S + 1) * 1000);
      const late = await refresh(tokens.refresh_token);
      expect(late.status).toBe(400);
      expect(late.body.error).toBe('invalid_grant');
      // The replay revoked the family: even the newest refresh token is refused now.
      const afterwards = await refresh(latest.body.refresh_token);
      expect(afterwards.status).toBe(400);
      expect(afterwards.body.error).toBe('invalid_grant');
    }, 30_000);

    describe('the grace layer with a scripted token endpoint', () => {
      const invalidGrant = () =>
        Response.json(
          { error: 'invalid_grant', error_description: 'invalid refresh token' },
          { status: 400 },
        );

      it('asks again while the token was rotated inside the interval, until the answer is there', async () => {
        const tokens = await expiredGrant();
        expect((await refresh(tokens.refresh_token)).status).toBe(200); // now rotated, in grace
        const grace = createRefreshGrace({ db: stored.store.db });
        let calls = 0;
        const response = await grace(refreshRequest(tokens.refresh_token), async (request) => {
          calls += 1;
          expect(new URLSearchParams(await request.text()).get('refresh_token')).toBe(tokens.refresh_token);
          return calls < 3 ? invalidGrant() : Response.json({ access_token: 'replayed' });
        });
        expect(response.status).toBe(200);
        expect(calls).toBe(3);
      });

      it('passes a refusal straight on for a token that was never rotated, or rotated long ago', async () => {
        const tokens = await expiredGrant();
        const grace = createRefreshGrace({ db: stored.store.db });
        let calls = 0;
        const refuse = async () => {
          calls += 1;
          return invalidGrant();
        };
        expect((await grace(refreshRequest(tokens.refresh_token), refuse)).status).toBe(400);
        expect(calls).toBe(1);
        expect((await refresh(tokens.refresh_token)).status).toBe(200);
        const later = createRefreshGrace({
          db: stored.store.db,
          now: () => Date.now() + (REFRESH_REUSE_INTERVAL_S + 1) * 1000,
        });
        calls = 0;
        expect((await later(refreshRequest(tokens.refresh_token), refuse)).status).toBe(400);
        expect(calls).toBe(1);
      });

      it('gives up after its wait when the answer never comes', async () => {
        const tokens = await expiredGrant();
        expect((await refresh(tokens.refresh_token)).status).toBe(200);
        const grace = createRefreshGrace({ db: stored.store.db, waitMs: 200 });
        let calls = 0;
        const started = performance.now();
        const response = await grace(refreshRequest(tokens.refresh_token), async () => {
          calls += 1;
          return invalidGrant();
        });
        expect(response.status).toBe(400);
        expect(calls).toBeGreaterThan(1);
        // It waited its 200 ms (25 + 50 + 100 + the 25 left), plus the time of the calls themselves.
        expect(performance.now() - started).toBeGreaterThanOrEqual(200);
        expect(performance.now() - started).toBeLessThan(REFRESH_RACE_WAIT_MS);
        expect(calls).toBe(5);
      });

      it('shares one answer between identical refreshes in flight, and not with a different one', async () => {
        const grace = createRefreshGrace({ db: stored.store.db });
        let calls = 0;
        const slow = async (request: Request) => {
          calls += 1;
          await sleep(50);
          const token = new URLSearchParams(await request.text()).get('refresh_token');
          return Response.json({ access_token: `for-${token}-${calls}` });
        };
        const answers = await Promise.all(
          ['a', 'a', 'a', 'b'].map(async (token) => (await grace(refreshRequest(token), slow)).json()),
        );
        expect(calls).toBe(2);
        expect(answers.slice(0, 3)).toEqual([answers[0], answers[0], answers[0]]);
        expect(answers[3]).not.toEqual(answers[0]);
      });

      it('passes other grants through untouched', async () => {
        const grace = createRefreshGrace({ db: stored.store.db });
        const request = new Request(metadata.token_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code&code=abc',
        });
        let seen = '';
        await grace(request, async (r) => {
          seen = await r.text();
          return new Response(null, { status: 204 });
        });
        expect(seen).toBe('grant_type=authorization_code&code=abc');
      });
    });
  });
});
