/**
 * Where an edge answers before the settings API or payments (a body over the
 * path's limit, the rider side failing to open), the answer is still a
 * problem document; the sign-in paths keep the OAuth shape, the MCP
 * addresses JSON-RPC.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpService } from '../../src/app/mcp-service.ts';
import { createApiReplier } from '../../src/rest/handler.ts';
import { bodyLimitFor, bufferBody } from '../../src/server/request-body.ts';

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    void bufferBody(request, response, path).then((ready) => {
      if (ready) response.end('read');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const tooLarge = (path: string) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: 'x'.repeat(bodyLimitFor(path) + 1),
  });

describe('a body over the limit', () => {
  it.each(['/api/rider/connections/x/disconnect', '/api/billing/status'])(
    'is a payload_too_large problem at %s',
    async (path) => {
      const response = await tooLarge(path);
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({
        type: `${origin}/docs#error-payload-too-large`,
        title: 'Payload Too Large',
        status: 413,
        code: 'payload_too_large',
        instance: path,
        detail: 'The request body is larger than the 16 KB this address takes.',
      });
    },
  );

  it('keeps the OAuth shape on the sign-in paths and JSON-RPC on the MCP addresses', async () => {
    expect(await (await tooLarge('/api/auth/sign-in/email')).json()).toMatchObject({
      error: 'payload_too_large',
    });
    expect(await (await tooLarge('/mcp')).text()).toMatch(/^\{"jsonrpc":"2.0"/);
    // The addresses with a trailing slash take the MCP limit and shape too (issue 28).
    for (const path of ['/mcp/', '/mcp/rider/']) {
      expect(bodyLimitFor(path), path).toBe(bodyLimitFor('/mcp'));
      expect(await (await tooLarge(path)).text(), path).toMatch(/^\{"jsonrpc":"2.0".*64 KB/);
    }
  });
});

describe('the rider side failing to open', () => {
  it('is a temporarily_unavailable problem at the settings API, with Retry-After', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const service = createMcpService({
      publicEndpoint: () => Promise.reject(new Error('not used')),
      openRider: () => Promise.reject(new Error('database is down')),
    });
    const response = await service.handle(new Request('http://site.test/api/rider/me'), {
      address: '192.0.2.1',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toMatchObject({
      type: 'http://site.test/docs#error-temporarily-unavailable',
      code: 'temporarily_unavailable',
      instance: '/api/rider/me',
    });
    const signIn = await service.handle(new Request('http://site.test/api/auth/get-session'), {
      address: '192.0.2.1',
    });
    expect(await signIn.json()).toMatchObject({ error: 'temporarily_unavailable' });
    log.mockRestore();
  });
});

describe('an MCP path that is not an address', () => {
  it('is a not_found problem like any other unknown path, without opening the rider side', async () => {
    const openRider = vi.fn(() => Promise.reject(new Error('must not open')));
    const service = createMcpService({
      publicEndpoint: () => Promise.reject(new Error('not used')),
      openRider,
    });
    const response = await service.handle(new Request('http://site.test/mcp/nope'), { address: '192.0.2.1' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      type: 'http://site.test/docs#error-not-found',
      status: 404,
      code: 'not_found',
      instance: '/mcp/nope',
    });
    expect(openRider).not.toHaveBeenCalled();
  });

  it('carries the headers of every other 404 problem: CORS and the same Cache-Control (issue 28)', async () => {
    const service = createMcpService({
      publicEndpoint: () => Promise.reject(new Error('not used')),
      openRider: () => Promise.reject(new Error('not used')),
    });
    const rest = createApiReplier()('GET', 'http://site.test/v1/nope');
    for (const path of ['/mcp/nope', '/mcp/rider/x', '/mcp//', '/mcp/../v1/plans']) {
      const response = await service.handle(new Request(`http://site.test${path}`), { address: '192.0.2.1' });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(response.headers.get('cache-control'), path).toBe(rest.headers['cache-control']);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('the MCP addresses with a trailing slash (issue 28)', () => {
  it('sends /mcp/ to the public address and /mcp/rider/ to the rider address', async () => {
    const seen: string[] = [];
    const endpoint = (name: string) => async (request: Request) => {
      seen.push(`${name} ${new URL(request.url).pathname}`);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const service = createMcpService({
      publicEndpoint: async () => endpoint('public'),
      openRider: async () => ({
        store: undefined as never,
        endpoint: endpoint('rider'),
        endpoints: async () => undefined,
      }),
    });
    for (const path of ['/mcp', '/mcp/', '/mcp/rider', '/mcp/rider/'])
      expect(
        (await service.handle(new Request(`http://site.test${path}`), { address: '192.0.2.1' })).status,
      ).toBe(200);
    expect(seen).toEqual(['public /mcp', 'public /mcp/', 'rider /mcp/rider', 'rider /mcp/rider/']);
  });
});
