/**
 * The wire form of a failure on each surface, from bad inputs, over the real
 * handlers: one renderer per surface (decision 0049), so each block below
 * pins that renderer's status, content type, body shape and Cache-Control.
 *
 * - REST: `application/problem+json` (RFC 9457), `type` = `{docs_url}#error-<code>`;
 * - MCP: a tool's failure as an `isError` result, a refused message as a
 *   JSON-RPC error with `id: null`;
 * - the site's settings API: the same problem document, private (`no-store`);
 * - the request edge: the style the path table gives the path.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import { riderApi } from '../../src/account/account-api.ts';
import { edgeErrorResponse } from '../../src/app/edge-errors.ts';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { CACHE } from '../../src/http/cache-control.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { MCP_MAX_BODY_BYTES } from '../../src/rider/access-policy.ts';
import type { Database } from '../../src/store/schema.ts';
import { failingForecast, testDeps, testEndpoint } from '../support/mcp-deps.ts';

const DOCS = 'https://docs.test/guide';
const allow = { take: async () => ({ allowed: true, retryAfterS: 0 }) };

/** The members every problem document carries, with the code's anchor in `type`. */
function expectProblem(body: unknown, code: string, status: number, instance: string): void {
  expect(body).toMatchObject({
    type: `${DOCS}#error-${code.replaceAll('_', '-')}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance,
    code,
    hint: expect.any(String),
  });
  // RFC 9457's members first, in one order on every surface; a code's own fields after them.
  expect(Object.keys(body as object).slice(0, 7)).toEqual([
    'type',
    'title',
    'status',
    'detail',
    'instance',
    'code',
    'hint',
  ]);
}

describe('REST: every failure is problem+json', () => {
  const rest = (failing = false) => {
    const forecast = failing ? { forecast: failingForecast(new ForecastError('timeout', 'No answer.')) } : {};
    const data = { ...testDeps(forecast), limiter: allow };
    return createApiHandler({ docsUrl: DOCS }, { data: async () => data, memo: 0 });
  };
  const get = (path: string, init?: RequestInit) => new Request(`http://api.test${path}`, init);

  it.each([
    ['/v1/wind?lat=abc&lon=6', 'invalid_parameter', 400, CACHE.clientError],
    ['/v1/wind?lon=6', 'missing_parameter', 400, CACHE.clientError],
    ['/v1/nothing-here', 'not_found', 404, CACHE.clientError],
    ['/v1/segments/no-such-segment', 'unknown_segment', 404, undefined],
  ])('%s answers %s', async (path, code, status, cache) => {
    const response = await rest()(get(path));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    if (cache) expect(response.headers.get('cache-control')).toBe(cache);
    expectProblem(await response.json(), code, status, new URL(path, 'http://x').pathname);
  });

  it('a method it does not take is a 405 with Allow, never cached', async () => {
    const response = await rest()(get('/v1/wind?lat=45&lon=6', { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expectProblem(await response.json(), 'method_not_allowed', 405, '/v1/wind');
  });

  it('a forecast that fails is a 503, never cached', async () => {
    const response = await rest(true)(get('/v1/wind?lat=45.1&lon=6.07'));
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    const body = (await response.json()) as { code: string };
    expect(['forecast_unavailable', 'forecast_unreachable']).toContain(body.code);
    expectProblem(body, body.code, 503, '/v1/wind');
  });
});

describe('MCP: a tool failure is an isError result, a refused message a JSON-RPC error', () => {
  const endpoint = testEndpoint(testDeps(), { ratePerMinute: 1e9, rateBurst: 1e9 });
  const client = { address: '127.0.0.1' };
  const post = (body: string) =>
    new Request('http://localhost:3000/mcp', {
      method: 'POST',
      headers: {
        host: 'localhost:3000',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body,
    });
  const call = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });

  /** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event. */
  async function messageOf(response: Response): Promise<Record<string, unknown>> {
    const text = await response.text();
    const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
    return JSON.parse(data) as Record<string, unknown>;
  }

  it('an unknown segment is a 200 whose result says isError, in words for the assistant', async () => {
    const response = await endpoint(post(call('get_segment', { segment_id: 'no-such-segment' })), client);
    expect(response.status).toBe(200);
    const message = await messageOf(response);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: true } });
    const { content } = message['result'] as { content: { type: string; text: string }[] };
    expect(content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/\S/) });
  });

  it('arguments the schema refuses are an isError result too, never a thrown error', async () => {
    const response = await endpoint(post(call('find_tailwind_segments', { latitude: 'north' })), client);
    expect(response.status).toBe(200);
    expect(await messageOf(response)).toMatchObject({ id: 7, result: { isError: true } });
  });

  it('a body over the bound is a 413 JSON-RPC error with id null, never cached', async () => {
    const response = await endpoint(post(`{"pad":"${'x'.repeat(MCP_MAX_BODY_BYTES)}"}`), client);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'The request body is larger than the 64 KB this address takes.',
      },
      id: null,
    });
  });

  it('a body that is not JSON is a 400 parse error with id null', async () => {
    const response = await endpoint(post('{not json'), client);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });
});

describe("the site's settings API: a private problem document", () => {
  const context = (session: () => Promise<null>) => ({
    session,
    catalog: { get: () => undefined },
    payments: { configured: false } as never,
    checkTarget: () => Promise.resolve({ ok: true as const, url: new URL('https://hook.test/') }) as never,
    db: {} as Kysely<Database>,
    origin: 'https://rider.test',
    docsUrl: DOCS,
  });

  it('a signed-out request is a 401 problem, no-store, with no CORS', async () => {
    const response = await riderApi(
      new Request('https://rider.test/api/rider/me'),
      context(() => Promise.resolve(null)),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expectProblem(await response.json(), 'unauthorized', 401, '/api/rider/me');
  });

  it('a failure nobody foresaw is internal_error, without its message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await riderApi(
      new Request('https://rider.test/api/rider/me'),
      context(() => Promise.reject(new Error('secret'))),
    );
    log.mockRestore();
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    const text = await response.text();
    expect(text).not.toMatch(/secret/);
    expectProblem(JSON.parse(text), 'internal_error', 500, '/api/rider/me');
  });
});

describe('the request edge: the style the path table gives the path', () => {
  const failure = { code: 'payload_too_large', detail: 'The request body is too large.' } as const;
  const refuse = (path: string) =>
    edgeErrorResponse(new Request(`https://site.test${path}`, { method: 'POST' }), failure);

  it('a problem document on the settings API', async () => {
    const response = refuse('/api/rider/me');
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expect(await response.json()).toMatchObject({
      type: 'https://site.test/docs#error-payload-too-large',
      code: 'payload_too_large',
      status: 413,
      instance: '/api/rider/me',
    });
  });

  it('a JSON-RPC error on the MCP addresses, in the form the SDK writes its own', async () => {
    const response = refuse('/mcp');
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    const text = await response.text();
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['jsonrpc', 'error', 'id']);
    // -32000, as the SDK (and the MCP endpoint, where the platform hands it the body) answer a body over the bound.
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32000 }, id: null });
  });

  it('the OAuth shape on the sign-in paths', async () => {
    const response = refuse('/api/auth/oauth2/token');
    expect(response.status).toBe(413);
    expect(response.headers.get('cache-control')).toBe(CACHE.none);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
  });
});
