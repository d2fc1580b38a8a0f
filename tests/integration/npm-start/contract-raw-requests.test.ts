import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { exchange, type ConnectionLog, type RawResponse } from '../../support/raw-http.ts';
import { sharedService } from '../../support/service.ts';
import { refusedBody } from '../../../src/mcp/request-body.ts';
import { MCP_MAX_BODY_BYTES } from '../../../src/rider/access-policy.ts';

const service = sharedService();

/** Sends bytes no fetch client would, and reads the whole answer. */
function raw(request: string): Promise<string> {
  const { port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(request));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const status = (answer: string) => Number(answer.split(' ', 2)[1]);

describe('npm start: request lines no browser sends', () => {
  it('answers an absolute-form request line like the origin-form one', async () => {
    const answer = await raw(
      'GET http://proxy.example/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80 HTTP/1.1\r\nHost: proxy.example\r\nConnection: close\r\n\r\n',
    );
    expect(status(answer)).toBe(200);
    expect(answer).toContain('"signed_tailwind_kmh":19.7');
  });

  it('answers a Host header that makes no URL with a problem, and keeps serving', async () => {
    const answer = await raw('GET /v1/plans HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n');
    expect([400, 404]).toContain(status(answer));
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
  });

  it('answers a bad Host header on a site page with a 400, not a dropped connection', async () => {
    const answer = await raw('GET /docs HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n');
    expect(status(answer)).toBe(400);
  });

  it('answers OPTIONS * without failing', async () => {
    const answer = await raw('OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(status(answer)).toBeLessThan(500);
    expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
  });
});

/** Sends one request (and optionally a second one on the same connection) and reads both answers. */
async function onOneConnection(first: Buffer, then?: string): Promise<ConnectionLog> {
  const { port } = new URL(service.baseUrl);
  const requests = [{ bytes: first, head: false }];
  if (then) requests.push({ bytes: Buffer.from(then), head: false });
  return exchange(Number(port), requests, { pipelined: false, timeoutMs: 10_000 });
}

function problemOf(response: RawResponse | undefined) {
  expect(response?.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response?.headers['access-control-allow-origin']).toBe('*');
  return JSON.parse(response?.body ?? '') as { status: number; type: string; code: string; instance: string };
}

const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe('npm start: the edge answers what Node’s parser refuses (issue 11)', () => {
  it.each([
    ['CONNECT /v1/tailwind HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '/v1/tailwind'],
    ['CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', '/'],
    ['get /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '/health'],
    ['BREW /v1/tailwind HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '/v1/tailwind'],
    ['HEADX /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n\r\n', '/docs'],
  ])('answers %j with a 405 problem and closes', async (request, instance) => {
    const log = await onOneConnection(Buffer.from(request), HEALTH);
    expect(log.responses).toHaveLength(1);
    const [answer] = log.responses;
    expect(answer?.status).toBe(405);
    expect(answer?.headers['cache-control']).toBe('no-store');
    expect(answer?.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(answer?.headers['connection']).toBe('close');
    expect(problemOf(answer)).toMatchObject({ status: 405, code: 'method_not_allowed', instance });
  });

  it('finishes an 84 KB page pipelined before a CONNECT, then refuses the CONNECT', async () => {
    // Node takes its HTTP `drain` listener off a CONNECT's socket; the page streamed before it
    // used to stop after its first 64 KB and the connection hung.
    const { port } = new URL(service.baseUrl);
    const page = 'GET /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n\r\n';
    const log = await exchange(
      Number(port),
      [
        { bytes: Buffer.from(page), head: false },
        { bytes: Buffer.from('CONNECT /v1/tailwind HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), head: false },
      ],
      { pipelined: true, timeoutMs: 10_000 },
    );
    expect(log.end).not.toBe('timeout');
    const [docs, refusal] = log.responses;
    expect(docs?.status).toBe(200);
    expect(Buffer.byteLength(docs?.body ?? '')).toBe(Number(docs?.headers['content-length']));
    expect(Number(docs?.headers['content-length'])).toBeGreaterThan(64 * 1024);
    expect(refusal?.status).toBe(405);
  });

  it('answers a 64 KB query string (past the parser limit) with a 414 problem', async () => {
    const log = await onOneConnection(
      Buffer.from(`GET /v1/tailwind?q=${'x'.repeat(64 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
    );
    const problem = problemOf(log.responses[0]);
    expect(problem).toMatchObject({ status: 414, code: 'uri_too_long' });
    expect(problem.type).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs#error-uri-too-long$/);
    expect(log.responses[0]?.headers['cache-control']).toBe('no-store');
  });

  it('answers a 12 KB target with a 414 and 20 KB of headers with a 431, keeping the connection', async () => {
    const long = await onOneConnection(
      Buffer.from(`GET /health?q=${'x'.repeat(12_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
      HEALTH,
    );
    expect(long.responses.map((r) => r.status)).toEqual([414, 200]);
    const big = await onOneConnection(
      Buffer.from(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`),
      HEALTH,
    );
    expect(big.responses.map((r) => r.status)).toEqual([431, 200]);
    expect(problemOf(big.responses[0])).toMatchObject({ code: 'header_too_large', instance: '/health' });
  });

  it.each([
    ['an empty Host', 'GET /health HTTP/1.1\r\nHost:\r\n\r\n'],
    [
      'no Host',
      'GET /v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80 HTTP/1.1\r\n\r\n',
    ],
    ['a Host with a path', 'GET /health HTTP/1.1\r\nHost: health/docs\r\n\r\n'],
    ['a Host with an impossible port', 'GET /docs HTTP/1.1\r\nHost: x:99999\r\nAccept: text/html\r\n\r\n'],
    ['two Host lines', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n'],
    [
      'an absolute target with an impossible port',
      'GET http://x:99999/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    ],
    ['an absolute target with no authority', 'GET http:///health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('answers %s with an uncacheable 400 problem whose type is absolute', async (_name, request) => {
    const log = await onOneConnection(Buffer.from(request), HEALTH);
    const [answer, next] = log.responses;
    expect(answer?.status).toBe(400);
    expect(answer?.headers['cache-control']).toBe('no-store');
    const problem = problemOf(answer);
    expect(problem).toMatchObject({ status: 400, code: 'bad_request' });
    expect(problem.type).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs#error-bad-request$/);
    // The request was read whole, so the connection goes on.
    expect(next?.status).toBe(200);
  });

  it('answers a path whose percent-encoding is not UTF-8 with a problem, not text', async () => {
    const log = await onOneConnection(
      Buffer.from('GET /%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    );
    expect(problemOf(log.responses[0])).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('npm start: Cache-Control on every answer (issue 11)', () => {
  it('marks the sign-in API private', async () => {
    const response = await fetch(`${service.baseUrl}/api/auth/ok`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('sends the page’s policy with a 304', async () => {
    const page = await fetch(`${service.baseUrl}/docs`);
    const etag = page.headers.get('etag') ?? '';
    await page.body?.cancel();
    const again = await fetch(`${service.baseUrl}/docs`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(page.headers.get('cache-control'));
  });
});

describe('npm start: early refusals leave the connection usable (issue 11)', () => {
  const post = (path: string, size: number, type = 'application/json') =>
    Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${size}\r\n\r\n`,
      ),
      Buffer.alloc(size, 'a'),
    ]);

  it.each(['/mcp', '/mcp/rider', '/api/rider/webhook'])(
    'drains a 300 KB body refused at %s and answers the next request',
    async (path) => {
      const log = await onOneConnection(post(path, 300_000), HEALTH);
      expect(log.responses.map((r) => r.status)).toEqual([413, 200]);
      expect(log.responses[0]?.headers['cache-control']).toBe('no-store');
    },
  );

  it('answers a 415 at /mcp without reading the body and still serves the next request', async () => {
    const log = await onOneConnection(post('/mcp', 300_000, 'text/plain'), HEALTH);
    expect(log.responses.map((r) => r.status)).toEqual([413, 200]);
    const small = await onOneConnection(post('/mcp', 2_000, 'text/plain'), HEALTH);
    expect(small.responses.map((r) => r.status)).toEqual([415, 200]);
  });

  it('closes, saying so, after refusing a body too large to drain', async () => {
    const log = await onOneConnection(post('/mcp', 3_000_000), HEALTH);
    expect(log.responses).toHaveLength(1);
    expect(log.responses[0]?.status).toBe(413);
    expect(log.responses[0]?.headers['connection']).toBe('close');
    expect(log.end).not.toBe('timeout');
    // The same words and code as the MCP endpoint's own refusal, which is what the Vercel function sends.
    const own = refusedBody({ kind: 'too-large' }, MCP_MAX_BODY_BYTES);
    expect(JSON.parse(log.responses[0]?.body ?? '')).toEqual(await own?.json());
  });
});

describe('npm start: MCP targets with a trailing slash or none of its addresses (issue 28)', () => {
  const get = (target: string) =>
    Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`);
  const initialize = (target: string) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1.0.0' },
      },
    });
    return Buffer.from(
      `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };

  it('serves /mcp/ as the public address and challenges at /mcp/rider/ with the canonical metadata', async () => {
    const open = await onOneConnection(initialize('/mcp/'), HEALTH);
    expect(open.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(open.responses[0]?.body).toContain('"serverInfo"');
    const rider = await onOneConnection(initialize('/mcp/rider/'), HEALTH);
    expect(rider.responses.map((r) => r.status)).toEqual([401, 200]);
    expect(rider.responses[0]?.headers['www-authenticate']).toContain(
      '/.well-known/oauth-protected-resource/mcp/rider"',
    );
  });

  it.each(['/mcp/unknown', '/mcp/../v1/plans', '/mcp/rider/x', '/mcp//'])(
    'answers %s with a 404 problem that has the CORS and Cache-Control of every other',
    async (target) => {
      const log = await onOneConnection(get(target), HEALTH);
      expect(log.responses.map((r) => r.status)).toEqual([404, 200]);
      const other = await onOneConnection(get('/v1/nope'));
      const problem = problemOf(log.responses[0]);
      expect(problem).toMatchObject({ status: 404, code: 'not_found' });
      expect(log.responses[0]?.headers['cache-control']).toBe(other.responses[0]?.headers['cache-control']);
    },
  );

  it('answers the REST paths with one trailing slash', async () => {
    const log = await onOneConnection(get('/health/'), HEALTH);
    expect(log.responses.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.parse(log.responses[0]?.body ?? '')).toMatchObject({ status: 'ok' });
  });
});
