import { createMcpHandler } from '@modelcontextprotocol/server';
import { buildServer } from '../../src/mcp/build-server.ts';
import { createRateLimiter } from '../../src/mcp/rate-limit.ts';
import { RIDER_ADDRESS_TOOLS } from '../../src/mcp/tools/rider/index.ts';
import { resolveUrls } from '../../src/http/public-urls.ts';
import { connectClient, inProcessFetch, type Era } from './mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from './mcp-deps.ts';
import { measuringFetch } from './served-bytes.ts';

export type Address = '/mcp' | '/mcp/rider';
export const ADDRESSES: readonly Address[] = ['/mcp', '/mcp/rider'];

/** The rider address's handler as the rider harness builds it, for a caller that needs no store: tools/list. */
function riderFetch() {
  const deps = testDeps();
  const handler = createMcpHandler(
    () =>
      buildServer({
        tools: RIDER_ADDRESS_TOOLS,
        context: {
          ...deps,
          caller: { kind: 'rider', riderId: 'lister', grantId: 'g', clientId: 'c', scopes: [] },
          urls: resolveUrls({}, new URL(`${TEST_MCP_URL}/rider`)),
        },
        limiter: createRateLimiter({ perMinute: 600, burst: 100 }),
        limitKey: 'grant:g',
      }),
    { legacy: 'stateless' },
  );
  return (input: string | URL | Request, init?: RequestInit) => handler.fetch(new Request(input, init));
}

/**
 * `tools/list` at an address as an SDK client receives it: the HTTP body's
 * UTF-8 bytes (JSON-RPC envelope and any SSE framing included), and how many
 * tools it listed.
 */
export async function servedToolList(address: Address, era: Era): Promise<{ bytes: number; tools: number }> {
  const inner = address === '/mcp' ? inProcessFetch(testEndpoint()) : riderFetch();
  const measured = measuringFetch(inner);
  const url = address === '/mcp' ? TEST_MCP_URL : `${TEST_MCP_URL}/rider`;
  const client = await connectClient(url, era, measured.fetch);
  try {
    const { tools } = await client.listTools();
    const bytes = measured.bytes.get('tools/list');
    if (bytes === undefined) throw new Error(`no tools/list answer measured at ${address}`);
    return { bytes, tools: tools.length };
  } finally {
    await client.close();
  }
}

/**
 * One `tools/call` at the public address as an SDK client receives it: the
 * HTTP body's UTF-8 bytes, and whether the tool answered with an error.
 */
export async function servedPublicAnswer(
  name: string,
  args: Record<string, unknown>,
  era: Era = '2025',
): Promise<{ bytes: number; isError: boolean }> {
  const measured = measuringFetch(inProcessFetch(testEndpoint()));
  const client = await connectClient(TEST_MCP_URL, era, measured.fetch);
  try {
    const result = await client.callTool({ name, arguments: args });
    const bytes = measured.bytes.get('tools/call');
    if (bytes === undefined) throw new Error(`no tools/call answer measured for ${name}`);
    return { bytes, isError: result.isError === true };
  } finally {
    await client.close();
  }
}
