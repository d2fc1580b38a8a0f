/**
 * The MCP rate limit counts by the address the listener or function passes
 * beside the request (`handle(request, client)`), not by anything in the
 * request: two callers behind different addresses have an allowance each,
 * and the same address is limited whatever headers it sends.
 */
import { describe, expect, it } from 'vitest';
import { testDeps, testEndpoint } from '../support/mcp-deps.ts';

const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'get_segment', arguments: { segment_id: 'fr-alpe-d-huez' } },
});

function call(headers: Record<string, string> = {}): Request {
  return new Request('http://localhost:3000/mcp', {
    method: 'POST',
    headers: {
      host: 'localhost:3000',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: CALL,
  });
}

describe('the client address beside an MCP request', () => {
  it('gives each address its own allowance and ignores forwarding headers', async () => {
    const limited = testEndpoint(testDeps(), { rateBurst: 1, ratePerMinute: 1 });
    const text = async (request: Request, address: string) => (await limited(request, { address })).text();
    expect(await text(call(), '192.0.2.1')).not.toMatch(/Rate limit/);
    expect(await text(call(), '192.0.2.2')).not.toMatch(/Rate limit/);
    const forwarded = call({ 'x-forwarded-for': '192.0.2.3', 'x-real-ip': '192.0.2.3' });
    expect(await text(forwarded, '192.0.2.1')).toMatch(/Rate limit/);
  });

  it('leaves the request as the caller built it: no address header is added', async () => {
    const endpoint = testEndpoint(testDeps(), {});
    const request = call();
    await endpoint(request, { address: '192.0.2.9' });
    expect([...request.headers.keys()].filter((name) => name.startsWith('x-wos'))).toEqual([]);
  });
});
