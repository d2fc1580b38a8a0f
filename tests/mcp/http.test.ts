import { describe, expect, it } from 'vitest';
import { mcpConfigFromEnv } from '../support/settings.ts';
import { testDeps, testEndpoint } from '../support/mcp-deps.ts';

const endpoint = testEndpoint(testDeps(), mcpConfigFromEnv({ WOS_MCP_ALLOWED_ORIGINS: 'inspector.example' }));
const client = { address: '127.0.0.1' };

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

function post(headers: Record<string, string>, body = INITIALIZE): Request {
  return new Request('http://localhost:3000/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

describe('the MCP endpoint over HTTP', () => {
  it('refuses a Host it does not serve (DNS rebinding) with 403', async () => {
    const response = await endpoint(post({ host: 'evil.example.com' }), client);
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/Invalid Host/);
  });

  it('refuses a browser Origin it does not know, accepts allowed ones and echoes them for CORS', async () => {
    const refused = await endpoint(
      post({ host: 'localhost:3000', origin: 'http://evil.example.com' }),
      client,
    );
    expect(refused.status).toBe(403);
    const allowed = await endpoint(
      post({ host: 'localhost:3000', origin: 'https://inspector.example' }),
      client,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(
      /Mcp-Session-Id.*Mcp-Protocol-Version/,
    );
    expect(allowed.headers.get('cache-control')).toMatch(/no-store|no-cache/);
  });

  it('answers a CORS preflight with the methods and the headers asked for', async () => {
    const response = await endpoint(
      new Request('http://localhost:3000/mcp', {
        method: 'OPTIONS',
        headers: {
          host: 'localhost:3000',
          origin: 'https://inspector.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      }),
      client,
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
  });

  it('answers GET (a 2025 session stream) with 405: the server is stateless', async () => {
    const response = await endpoint(
      new Request('http://localhost:3000/mcp', {
        headers: { host: 'localhost:3000', accept: 'text/event-stream' },
      }),
      client,
    );
    expect(response.status).toBe(405);
  });

  it('refuses malformed JSON and an oversized body without a 5xx', async () => {
    const malformed = await endpoint(post({ host: 'localhost:3000' }, '{"jsonrpc":'), client);
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    const huge = await endpoint(post({ host: 'localhost:3000' }, `{"x":"${'a'.repeat(100_000)}"}`), client);
    expect(huge.status).toBe(413);
  });

  it('drops a client-supplied copy of the header the limit counts by', async () => {
    const limited = testEndpoint(testDeps(), { rateBurst: 1, ratePerMinute: 1 });
    const call = (spoof: string) =>
      limited(
        post(
          { host: 'localhost:3000', 'x-wos-client': spoof, 'mcp-protocol-version': '2025-06-18' },
          JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'get_segment', arguments: { segment_id: 'fr-alpe-d-huez' } },
          }),
        ),
        client,
      ).then((r) => r.text());
    expect(await call('a')).not.toMatch(/Rate limit/);
    expect(await call('b')).toMatch(/Rate limit/);
  });
});
