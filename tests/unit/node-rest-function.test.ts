/**
 * The REST function's Node-style handler (`src/app/node-rest-function.ts`, decision 0045) answers
 * exactly as the fetch form it replaced, as Vercel's runtime serves each: the same status, headers and
 * body bytes for answers, problems, preflights, HEAD and refused methods, and the same URL (forwarded
 * protocol and host, normalised) behind the links an answer holds.
 */
import { createServer, request as send, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restFunction } from '../../src/app/rest-api.ts';
import { nodeRestHandler } from '../../src/app/node-rest-function.ts';
import { createApiReplier } from '../../src/rest/handler.ts';

/** What Vercel's runtime does with a `fetch` function: a web Request from Node's, the Response copied back. */
function webBridge(fetch: (request: Request) => Promise<Response>): RequestListener {
  return (req, res) => {
    void (async () => {
      const proto = req.headers['x-forwarded-proto'] ?? 'https';
      const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost';
      const init: RequestInit & { duplex: 'half' } = {
        method: req.method ?? 'GET',
        headers: req.headers as Record<string, string>,
        duplex: 'half',
      };
      if (req.method !== 'GET' && req.method !== 'HEAD') init.body = Readable.toWeb(req) as ReadableStream;
      const response = await fetch(
        new Request(new URL(req.url ?? '/', `${String(proto)}://${String(host)}`), init),
      );
      res.statusCode = response.status;
      for (const [name, value] of response.headers) res.appendHeader(name, value);
      res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
    })();
  };
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Headers Node's server adds by itself, or that say how the bytes travelled. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function ask(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = send(
      { host: '127.0.0.1', port, method, path, headers: { host: 'wind-on-segment.vercel.test', ...headers } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.entries(response.headers)
              .filter(([name]) => !TRANSPORT.has(name))
              .map(([name, value]) => [name, String(value)] as [string, string])
              .sort(([a], [b]) => a.localeCompare(b)),
            body,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(method === 'POST' ? '{"a":1}' : undefined);
  });
}

const servers: ReturnType<typeof createServer>[] = [];
let nodePort = 0;
let fetchPort = 0;

async function listen(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // One replier per form, as each function instance has its own.
  nodePort = await listen(nodeRestHandler(createApiReplier({})) as RequestListener);
  fetchPort = await listen(webBridge(restFunction(createApiReplier({}))));
});

afterAll(() => {
  for (const server of servers) server.close();
});

const CASES: [string, string, Record<string, string>?][] = [
  ['GET', '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80'],
  ['GET', '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80'],
  ['GET', '/v1/tailwind?wind_speed_kmh=abc&wind_direction_deg=250'],
  ['GET', '/v1/bearing?start_lat=45&start_lon=6&end_lat=45.1&end_lon=6.1'],
  ['HEAD', '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80'],
  ['OPTIONS', '/v1/tailwind', { origin: 'https://example.org', 'access-control-request-method': 'GET' }],
  ['POST', '/v1/tailwind', { 'content-type': 'application/json' }],
  ['GET', '/health'],
  ['GET', '/openapi.json'],
  ['GET', '/v1/no-such-endpoint'],
  ['GET', '/v1/../health'],
  ['GET', '/v1/tailwind?wind_speed_kmh=%zz'],
  ['GET', '/v1/plans', { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'api.example.org' }],
  ['GET', '/v1/compass?bearing_deg=80', { 'x-real-ip': '198.51.100.7' }],
];

describe('the REST function as a Node-style handler', () => {
  it.each(CASES)('answers %s %s with the bytes of the fetch form', async (method, path, headers) => {
    const [node, web] = [
      await ask(nodePort, method, path, headers),
      await ask(fetchPort, method, path, headers),
    ];
    expect(node).toEqual(web);
  });

  it('has no fetch of its own, so Vercel calls it with Node’s request and response', () => {
    const handler = nodeRestHandler(createApiReplier({}));
    expect(typeof handler).toBe('function');
    expect('fetch' in handler).toBe(false);
  });
});
