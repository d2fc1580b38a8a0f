import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION as V1_LATEST } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { metadataOf, registerClient, tokensFor } from '../auth/support/grants.ts';
import { Agent, type Tokens } from '../auth/support/oauth.ts';
import { startAuthServer, type AuthServer } from '../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../auth/support/stores.ts';
import { ERAS, type Era } from '../support/mcp-client.ts';
import { testDeps } from '../support/mcp-deps.ts';
import { callsFor } from '../support/tool-calls.ts';

// Issue 10, deliverable 5: every tool through both SDK generations' clients, with their output-schema
// validation on, at both addresses: the public one, and the rider one with a token from the real OAuth flow.

const REDIRECT = 'http://127.0.0.1:9/callback';
// Each address also with a trailing slash, as a client may be configured (issue 28).
const ADDRESSES = ['/mcp', '/mcp/rider', '/mcp/', '/mcp/rider/'] as const;
const isRider = (address: Address): boolean => address.startsWith('/mcp/rider');
type Address = (typeof ADDRESSES)[number];

interface ToolResult {
  readonly isError?: boolean | undefined;
  readonly structuredContent?: unknown;
  readonly content?: unknown;
}

/** What the tests need of a connected client, whichever SDK made it. */
interface Connected {
  readonly listed: readonly string[];
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** True when the client compiled a validator for this tool's output schema. */
  validates(name: string): boolean;
  close(): Promise<void>;
}

let stored: TestStore;
let server: AuthServer;
let tokens: Tokens;

beforeAll(async () => {
  await ensureGazetteer();
  stored = await sqliteTestStore();
  server = await startAuthServer({ store: stored.store, rateLimit: false, mcp: testDeps() });
  const metadata = await metadataOf(server.origin);
  const clientId = await registerClient(metadata, REDIRECT, 'Client matrix');
  const rider = { email: 'matrix.rider@example.org', password: 'correct horse battery', signUp: true };
  tokens = await tokensFor(new Agent(server.origin), metadata, rider, {
    clientId,
    redirectUri: REDIRECT,
    scope: 'rider:read rider:write offline_access',
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await stored?.dispose();
});

function headersFor(address: Address): Record<string, string> {
  return isRider(address) ? { Authorization: `Bearer ${tokens.access_token}` } : {};
}

/** The v1 SDK client (`@modelcontextprotocol/sdk` 1.x): 2025-era only, draft-07 Ajv for output schemas. */
async function connectV1(address: Address): Promise<Connected> {
  const client = new ClientV1({ name: 'v1-assistant', version: '1.0.0' });
  const transport = new TransportV1(new URL(`${server.origin}${address}`), {
    requestInit: { headers: headersFor(address) },
  });
  await client.connect(transport);
  // The v1 client compiles its output validators from a tools/list, as assistants do before calling.
  const { tools } = await client.listTools();
  return {
    listed: tools.map((t) => t.name),
    call: (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolResult>,
    validates: (name) => client['getToolOutputValidator'](name) !== undefined,
    close: () => client.close(),
  };
}

/** The v2 SDK client (`@modelcontextprotocol/client`) in the given era. */
async function connectV2(address: Address, era: Era): Promise<Connected> {
  const client = new ClientV2(
    { name: 'v2-assistant', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2025' ? 'legacy' : { pin: era } } },
  );
  const transport = new TransportV2(new URL(`${server.origin}${address}`), {
    requestInit: { headers: headersFor(address) },
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return {
    listed: tools.map((t) => t.name),
    call: (name, args) => client.callTool({ name, arguments: args }),
    validates: (name) => tools.some((t) => t.name === name && t.outputSchema !== undefined),
    close: () => client.close(),
  };
}

const MATRIX = [
  ...ADDRESSES.map((address) => ({ sdk: 'v1', era: '2025' as Era, address })),
  ...ADDRESSES.flatMap((address) => ERAS.map((era) => ({ sdk: 'v2', era, address }))),
];

describe.each(MATRIX)('the $sdk SDK client, protocol $era, at $address', ({ sdk, era, address }) => {
  let client: Connected;
  beforeAll(async () => {
    client = sdk === 'v1' ? await connectV1(address) : await connectV2(address, era);
  });
  afterAll(() => client?.close());

  it('lists the tools of the address, each with an output schema the client validates against', () => {
    expect(client.listed).toContain('get_segment');
    expect(client.listed.includes('get_my_watchlist')).toBe(isRider(address));
    for (const name of client.listed) expect(client.validates(name), name).toBe(true);
  });

  it('calls every tool and accepts every answer', async () => {
    const calls = callsFor(client.listed);
    expect(new Set(calls.map((c) => c.name))).toEqual(new Set(client.listed));
    for (const call of calls) {
      // A schema mismatch throws here (the v1 client's -32602), failing the test with its message.
      const result = await client.call(call.name, call.arguments);
      expect(result.isError, `${call.name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.structuredContent, call.name).toBeTypeOf('object');
    }
  });
});

describe('the v1 SDK client', () => {
  it('speaks a 2025-era protocol version only, so the 2026-07-28 era is covered by the v2 client', () => {
    expect(V1_LATEST).toMatch(/^2025-/);
  });
});

describe('the rider address with a trailing slash (issue 28)', () => {
  it('keeps the canonical resource in the metadata, also where a client given /mcp/rider/ looks', async () => {
    for (const path of ['/mcp/rider', '/mcp/rider/']) {
      const response = await fetch(`${server.origin}/.well-known/oauth-protected-resource${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.json(), path).toMatchObject({ resource: `${server.origin}/mcp/rider` });
    }
  });

  it('accepts a token issued for either spelling of the resource at either address', async () => {
    const metadata = await metadataOf(server.origin);
    const clientId = await registerClient(metadata, REDIRECT, 'Slash client');
    const rider = { email: 'slash.rider@example.org', password: 'correct horse battery', signUp: true };
    const slashed = await tokensFor(new Agent(server.origin), metadata, rider, {
      clientId,
      redirectUri: REDIRECT,
      resource: `${server.origin}/mcp/rider/`,
      scope: 'rider:read offline_access',
    });
    for (const address of ['/mcp/rider', '/mcp/rider/']) {
      const client = new ClientV2({ name: 'slash-assistant', version: '1.0.0' });
      const transport = new TransportV2(new URL(`${server.origin}${address}`), {
        requestInit: { headers: { Authorization: `Bearer ${slashed.access_token}` } },
      });
      await client.connect(transport);
      const result = await client.callTool({ name: 'get_my_watchlist', arguments: {} });
      expect(result.isError, address).toBeFalsy();
      await client.close();
    }
    // A token for another resource is still refused at both spellings.
    const foreign = await fetch(`${server.origin}/mcp/rider/`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer not.a.token',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(foreign.status).toBe(401);
  });
});
