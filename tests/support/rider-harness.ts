import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { SCOPE_READ, SCOPE_WRITE } from '../../src/rider/access-policy.ts';
import { resolveUrls } from '../../src/http/public-urls.ts';
import type { Caller, McpDeps, RiderCaller } from '../../src/mcp/context.ts';
import { createRateLimiter } from '../../src/mcp/rate-limit.ts';
import { authInfoOf, buildServer } from '../../src/mcp/build-server.ts';
import type { ToolDefinition } from '../../src/mcp/tool.ts';
import { RIDER_ADDRESS_TOOLS } from '../../src/mcp/tools/rider/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { createRider, type NewRider, type Rider } from '../../src/store/repositories/riders.ts';
import { connectClient, type Era } from './mcp-client.ts';
import { TEST_MCP_URL, testDeps } from './mcp-deps.ts';

export interface RiderHarnessOptions {
  /** Replaces parts of the test deps (the store is always the harness's own). */
  readonly deps?: Partial<Omit<McpDeps, 'store'>>;
  /** The per-connection (per-grant) limit; generous by default so quota tests are not throttled. */
  readonly ratePerMinute?: number;
  readonly rateBurst?: number;
  readonly tools?: readonly ToolDefinition[];
  /** Another store to run on (PostgreSQL); migrated here and closed with the harness. SQLite in a temp folder by default. */
  readonly store?: Store;
}

export interface ConnectOptions {
  /** The OAuth grant the connection stands for; a fresh one by default. */
  readonly grantId?: string;
  readonly era?: Era;
  /** What the grant allows; read and write by default. */
  readonly scopes?: readonly string[];
  /** Wraps the in-process fetch the client talks through (to measure what is served). */
  readonly wrapFetch?: (fetch: FetchLike) => FetchLike;
}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface RiderHarness {
  readonly store: Store;
  readonly deps: McpDeps;
  /** A rider with a unique email; free with no trial unless told. */
  createRider(input?: Partial<NewRider>): Promise<Rider>;
  /** An SDK client at the rider address, calling as the given rider through the given grant. */
  connectRider(rider: Rider | string, options?: ConnectOptions): Promise<Client>;
  /** A client whose calls carry any caller (anonymous included), for the refusal paths. */
  connect(caller: Caller, era?: Era, wrapFetch?: (fetch: FetchLike) => FetchLike): Promise<Client>;
  close(): Promise<void>;
}

/**
 * The rider address in-process, as the real endpoint will serve it once
 * OAuth is in: the SDK's stateless handler around `buildServer`, the rider
 * tools, a SQLite store in a temp folder, the demo forecast at TEST_NOW, and
 * the per-connection limit keyed by OAuth grant. Only the bearer check is
 * left out: each client is bound to the caller it was connected with.
 */
export async function createRiderHarness(options: RiderHarnessOptions = {}): Promise<RiderHarness> {
  const folder = mkdtempSync(join(tmpdir(), 'wos-rider-'));
  const store = options.store ?? openStore({ engine: 'sqlite', path: join(folder, 'riders.sqlite') });
  await migrateToLatest(store, APP_MIGRATIONS);
  const deps: McpDeps = { ...testDeps(options.deps), store };
  const limiter = createRateLimiter({
    perMinute: options.ratePerMinute ?? 6000,
    burst: options.rateBurst ?? 1000,
  });
  const tools = options.tools ?? RIDER_ADDRESS_TOOLS;
  const clients: Client[] = [];

  const connect = async (
    caller: Caller,
    era: Era = '2026-07-28',
    wrapFetch: (fetch: FetchLike) => FetchLike = (fetch) => fetch,
  ): Promise<Client> => {
    const audience = { pro: caller.kind === 'rider' };
    const handler = createMcpHandler(() => buildServer({ tools, deps, audience, limiter }), {
      legacy: 'stateless',
      maxRequestBodySize: 64 * 1024,
    });
    const limitKey = caller.kind === 'rider' ? `grant:${caller.grantId}` : 'ip:127.0.0.1';
    const fetch = wrapFetch((input, init) => {
      const request = new Request(input, init);
      const urls = resolveUrls({}, new URL(request.url));
      return handler.fetch(request, { authInfo: authInfoOf({ caller, urls, limitKey }) });
    });
    const client = await connectClient(`${TEST_MCP_URL}/rider`, era, fetch);
    clients.push(client);
    return client;
  };

  return {
    store,
    deps,
    createRider: (input = {}) =>
      createRider(
        store.db,
        { email: `rider-${randomUUID()}@example.com`, ...input },
        Math.floor(deps.now() / 1000),
      ),
    connectRider(rider, { grantId = randomUUID(), era, scopes = [SCOPE_READ, SCOPE_WRITE], wrapFetch } = {}) {
      const caller: RiderCaller = {
        kind: 'rider',
        riderId: typeof rider === 'string' ? rider : rider.id,
        grantId,
        clientId: 'test-assistant',
        scopes,
      };
      return connect(caller, era, wrapFetch);
    },
    connect,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
