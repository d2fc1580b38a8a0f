/**
 * The MCP servers are reused from request to request (`src/mcp/server-pool.ts`)
 * and the body is parsed once (`src/mcp/request-body.ts`). These tests hold
 * the two promises that make that safe: concurrent calls from different
 * callers on reused servers each see only their own caller, URLs and limit,
 * and no request body is cloned or parsed a second time.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMcpEndpoint } from '../../src/mcp/endpoint.ts';
import type { RiderCaller } from '../../src/mcp/context.ts';
import type { CallAllowance } from '../../src/service/call-allowance.ts';
import { READ_ONLY_OPEN_WORLD, type ToolDefinition } from '../../src/mcp/tool.ts';
import { connectClient, ERAS, inProcessFetch, type Era } from '../support/mcp-client.ts';
import { mcpConfigFromEnv } from '../support/settings.ts';
import { testDeps } from '../support/mcp-deps.ts';

const WhoAmISchema = z.object({ rider: z.string(), mcp_url: z.string(), tag: z.string() });

/**
 * A tool that answers with what its call sees: the rider and the MCP URL of
 * its context, and the tag its caller sent. It waits until `gate` opens, so
 * every call of a wave is inside a tool at once (each holds its own server).
 */
function whoAmI(gate: () => Promise<void>): ToolDefinition {
  return {
    name: 'who_am_i',
    title: 'Who am I',
    description: 'Answers with the caller the tool sees.',
    inputSchema: z.object({ tag: z.string() }),
    outputSchema: WhoAmISchema,
    annotations: READ_ONLY_OPEN_WORLD,
    async run(input, context) {
      await gate();
      const rider = context.caller.kind === 'rider' ? context.caller.riderId : 'anonymous';
      const data = { rider, mcp_url: context.urls.mcp, tag: (input as { tag: string }).tag };
      return { data, summary: JSON.stringify(data) };
    },
  };
}

/** A gate that opens once `size` calls wait at it; the next wave gets a fresh one. */
function barrier(size: number) {
  let waiting = 0;
  let open: () => void = () => undefined;
  let opened = new Promise<void>((resolve) => (open = resolve));
  return {
    wait: async () => {
      const wave = opened;
      waiting += 1;
      if (waiting === size) {
        waiting = 0;
        const release = open;
        opened = new Promise<void>((resolve) => (open = resolve));
        release();
      }
      await wave;
    },
  };
}

/** Each rider is named by the bearer token (`rider-<n>`); the limiter refuses rider 3's grant only. */
function riderEndpoint(gate: () => Promise<void>, keys: string[]) {
  const limiter: CallAllowance = {
    take: (key) => {
      keys.push(key);
      return { allowed: key !== 'grant:grant-3', retryAfterS: key === 'grant:grant-3' ? 7 : 0 };
    },
  };
  return createMcpEndpoint({
    deps: testDeps(),
    api: {},
    mcp: mcpConfigFromEnv({ WOS_MCP_ALLOWED_HOSTS: '*' }),
    tools: [whoAmI(gate)],
    limiter,
    authenticate: (request) => {
      const n = /Bearer rider-(\d+)/.exec(request.headers.get('authorization') ?? '')?.[1];
      if (n === undefined) return Promise.resolve(new Response(null, { status: 401 }));
      const caller: RiderCaller = {
        kind: 'rider',
        riderId: `rider-${n}`,
        grantId: `grant-${n}`,
        clientId: `client-${n}`,
        scopes: ['rider:read'],
      };
      return Promise.resolve(caller);
    },
  });
}

const RIDERS = 6;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(ERAS)('reused MCP servers (%s clients)', (era: Era) => {
  it('give concurrent calls from different riders each their own caller, URLs and limit', async () => {
    // Rider 3 is refused by the limit before its tool runs: the gate opens when the other five wait at it.
    const gate = barrier(RIDERS - 1);
    const keys: string[] = [];
    const endpoint = riderEndpoint(gate.wait, keys);
    const clients = await Promise.all(
      Array.from({ length: RIDERS }, async (_, n) => {
        const fetch = inProcessFetch(endpoint);
        // Each rider reaches the server under its own host name, so the URLs its tools build differ too.
        const host = `rider${n}.example`;
        return connectClient(`http://${host}/mcp/rider`, era, (input, init) => {
          const request = new Request(input, init);
          const headers = new Headers(request.headers);
          headers.set('authorization', `Bearer rider-${n}`);
          return fetch(new Request(request, { headers }));
        });
      }),
    );
    const registered = vi.spyOn(McpServer.prototype, 'registerTool');
    const built: number[] = [];
    // Two waves of six calls at once, the second in the other order: its calls take the servers the first left.
    for (const order of [
      [0, 1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1, 0],
    ]) {
      keys.length = 0;
      const before = registered.mock.calls.length;
      const results = await Promise.all(
        order.map(async (n) => {
          const client = clients[n];
          if (!client) throw new Error(`no client ${n}`);
          return { n, result: await client.callTool({ name: 'who_am_i', arguments: { tag: `call-${n}` } }) };
        }),
      );
      for (const { n, result } of results) {
        if (n === 3) {
          expect(result.isError).toBe(true);
          expect(JSON.stringify(result.content)).toMatch(/Wait 7 s/);
          continue;
        }
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({
          rider: `rider-${n}`,
          mcp_url: `http://rider${n}.example/mcp`,
          tag: `call-${n}`,
        });
      }
      expect([...keys].sort()).toEqual(order.map((n) => `grant:grant-${n}`).sort());
      // One tool per server: a registration is a server built.
      built.push(registered.mock.calls.length - before);
    }
    // At most one server per call in flight, and the second wave ran on the servers the first left idle.
    expect(built[0]).toBeLessThanOrEqual(RIDERS);
    expect(built[1]).toBe(0);
    await Promise.all(clients.map((client) => client.close()));
  });
});

/** A 2026-07-28 `tools/call` by rider 1, as an SDK client sends it. */
function call(
  id: number,
  tool: string,
  protocol = '2026-07-28',
): { headers: Record<string, string>; body: string } {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': protocol,
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': protocol,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
      authorization: 'Bearer rider-1',
      host: 'localhost:3000',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: tool, arguments: { tag: 'once' }, _meta: meta },
    }),
  };
}

describe('the MCP body', () => {
  it('is read once and parsed once, by the endpoint, for the scope check and the SDK alike', async () => {
    const tools: (string | undefined)[] = [];
    const endpoint = createMcpEndpoint({
      deps: testDeps(),
      api: {},
      mcp: mcpConfigFromEnv({}),
      tools: [whoAmI(() => Promise.resolve())],
      authenticate: (_request, tool) => {
        tools.push(tool);
        return Promise.resolve({
          kind: 'rider',
          riderId: 'rider-1',
          grantId: 'grant-1',
          clientId: 'client-1',
          scopes: ['rider:read'],
        } satisfies RiderCaller);
      },
    });
    const { headers, body } = call(41, 'who_am_i');
    const parse = vi.spyOn(JSON, 'parse');
    const clone = vi.spyOn(Request.prototype, 'clone');
    let pulls = 0;
    const bytes = new TextEncoder().encode(body);
    // A body that exists once: a second reader (or a tee) would find it drained.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(bytes);
        controller.close();
      },
    });
    const request = new Request('http://localhost:3000/mcp/rider', {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await endpoint(request, { address: '127.0.0.1' });
    const answer = (await response.json()) as { result?: { structuredContent?: unknown } };
    expect(response.status).toBe(200);
    expect(answer.result?.structuredContent).toEqual({
      rider: 'rider-1',
      mcp_url: 'http://localhost:3000/mcp',
      tag: 'once',
    });
    expect(tools).toEqual(['who_am_i']);
    expect(pulls).toBe(1);
    expect(clone).not.toHaveBeenCalled();
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  });

  it('answers a body over the limit after the token check: 401 without a token, the 413 of the SDK with one', async () => {
    let tokenValid = false;
    const endpoint = createMcpEndpoint({
      deps: testDeps(),
      api: {},
      mcp: mcpConfigFromEnv({}),
      tools: [whoAmI(() => Promise.resolve())],
      authenticate: () =>
        Promise.resolve(
          tokenValid
            ? ({
                kind: 'rider',
                riderId: 'rider-1',
                grantId: 'grant-1',
                clientId: 'client-1',
                scopes: ['rider:read'],
              } satisfies RiderCaller)
            : new Response('no token', { status: 401 }),
        ),
    });
    const { headers } = call(1, 'who_am_i');
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', pad: 'x'.repeat(70_000) });
    const send = () =>
      endpoint(new Request('http://localhost:3000/mcp/rider', { method: 'POST', headers, body: huge }), {
        address: '127.0.0.1',
      });
    expect((await send()).status).toBe(401);
    tokenValid = true;
    const tooLarge = await send();
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'The request body is larger than the 64 KB this address takes.' },
      id: null,
    });
  });
});
