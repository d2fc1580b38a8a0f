/**
 * The request table of the listener fuzz: every kind of request line, Host,
 * header and body the Node listener must answer by the contract, with the
 * answer the contract promises where it promises one. Shared by the raw
 * socket fuzz against `npm start` and the same table through the built
 * Vercel functions.
 */
import fc from 'fast-check';

/** The REST API's paths, with the status a GET gets. */
export const API_TARGETS: readonly (readonly [string, number])[] = [
  ['/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80', 200],
  ['/v1/tailwind?wind_speed_kmh=abc&wind_direction_deg=250&segment_bearing_deg=80', 400],
  ['/v1/tailwind?wind_direction_deg=250&segment_bearing_deg=80', 400],
  ['/v1/bearing?start_lat=45.05&start_lon=6.03&end_lat=45.09&end_lon=6.07', 200],
  ['/v1/bearing?start_lat=-33.9&start_lon=179.9&end_lat=-33.8&end_lon=-179.9', 200],
  ['/v1/plans', 200],
  ['/health', 200],
  ['/openapi.json', 200],
  ['/v1/tailwnd', 404],
  ['/v1', 404],
  ['/v1/tailwind/?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80', 200],
  ['/openapi.json/', 200],
  ['/v1/plans//', 404],
];

/** Paths of the site, the MCP server and sign-in: answered by their own rules, checked for the common ones. */
export const OTHER_TARGETS: readonly string[] = [
  '/',
  '/docs',
  '/docs/',
  '/changelog',
  '/pricing',
  '/no-such-page',
  '/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd',
  '/_astro/missing.js',
  '/pricing/',
  '/mcp',
  '/mcp/rider',
  '/mcp/nope',
  '/api/auth/ok',
  '/api/auth/get-session',
  '/api/rider/webhook',
  '/api/billing/status',
  '/api/billing/webhook',
  '/.well-known/oauth-protected-resource',
];

/** Methods Node's parser routes to the listener, and tokens it refuses (lowercase, unknown). */
const ALLOWED = ['GET', 'HEAD', 'OPTIONS'] as const;
const OTHER_KNOWN = ['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND', 'PURGE', 'TRACE'] as const;
export const UNKNOWN_METHODS = ['get', 'Get', 'post', 'FOO', 'BREW', 'HEADX', 'G3T'] as const;

export type Fault =
  | 'none'
  | 'unknown-method'
  | 'connect'
  | 'long-target'
  | 'big-header'
  | 'huge-head'
  | 'bad-host'
  | 'bad-target';

/** One generated request, before it becomes bytes. */
export interface TableRequest {
  readonly method: string;
  /** Origin-form path and query, or the whole target for `bad-target`, `*` and absolute forms. */
  readonly target: string;
  /** The path a router sees (after absolute-form rewriting), for the oracle. */
  readonly path: string;
  readonly version: '1.1' | '1.0';
  /** `undefined`: no Host line; an array: several Host lines. */
  readonly host: string | readonly string[] | undefined;
  readonly accept: string | undefined;
  readonly extra: readonly (readonly [string, string])[];
  readonly body: { readonly size: number; readonly chunked: boolean } | undefined;
  readonly fault: Fault;
}

const BAD_HOSTS = ['', 'bad host', 'x:99999', 'a/b', 'u@h', 'h\\x', '[::1'] as const;
const BAD_TARGETS = [
  'http://x:99999/health',
  'ftp://x/health',
  'http:///health',
  'example.org:80',
  'http://a b/health',
];

export function requestArbitrary(port: number): fc.Arbitrary<TableRequest> {
  const goodHost = fc.constantFrom(`127.0.0.1:${port}`, 'localhost', `localhost:${port}`, '[::1]:80');
  const target = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...API_TARGETS.map(([path]) => path)) },
    { weight: 4, arbitrary: fc.constantFrom(...OTHER_TARGETS) },
  );
  const base = fc.record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...ALLOWED) },
      { weight: 2, arbitrary: fc.constantFrom(...OTHER_KNOWN) },
    ),
    target,
    absolute: fc.boolean(),
    version: fc.oneof(
      { weight: 9, arbitrary: fc.constant('1.1' as const) },
      { weight: 1, arbitrary: fc.constant('1.0' as const) },
    ),
    host: goodHost,
    accept: fc.constantFrom(
      undefined,
      'text/html',
      'application/json',
      '*/*',
      'application/json, text/event-stream',
    ),
    extra: fc.subarray([
      ['If-None-Match', '*'] as const,
      ['Origin', 'https://elsewhere.example'] as const,
      ['Content-Type', 'application/json'] as const,
      ['X-Forwarded-For', '203.0.113.9'] as const,
      ['Cookie', 'a=1; b=2'] as const,
    ]),
    body: fc.option(
      fc.record({
        size: fc.oneof(
          { weight: 20, arbitrary: fc.integer({ min: 1, max: 2048 }) },
          { weight: 1, arbitrary: fc.integer({ min: 70_000, max: 1_300_000 }) },
        ),
        chunked: fc.boolean(),
      }),
      { freq: 4 },
    ),
    fault: fc.oneof(
      { weight: 40, arbitrary: fc.constant('none' as const) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<Fault>(
          'unknown-method',
          'connect',
          'long-target',
          'big-header',
          'huge-head',
          'bad-host',
          'bad-target',
        ),
      },
    ),
    unknownMethod: fc.constantFrom(...UNKNOWN_METHODS),
    badHost: fc.oneof(
      fc.constantFrom<string | undefined | readonly string[]>(...BAD_HOSTS, undefined),
      fc.constant([`127.0.0.1:${port}`, 'other.example'] as const),
    ),
    badTarget: fc.constantFrom(...BAD_TARGETS),
  });
  return base.map((r): TableRequest => {
    const path = r.target.split('?', 1)[0] ?? '/';
    let request: TableRequest = {
      method: r.method,
      target: r.absolute ? `http://${r.host}${r.target}` : r.target,
      path,
      version: r.version,
      host: r.host,
      accept: r.accept,
      extra: r.extra,
      // A GET with a body is legal HTTP but rare; bodies go with the methods that carry them.
      body:
        r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH' ? (r.body ?? undefined) : undefined,
      fault: r.fault,
    };
    switch (r.fault) {
      case 'unknown-method':
        request = { ...request, method: r.unknownMethod };
        break;
      case 'connect':
        request = {
          ...request,
          method: 'CONNECT',
          target: r.absolute ? `127.0.0.1:${port}` : request.target,
        };
        break;
      case 'long-target':
        request = { ...request, target: `${path}?q=${'x'.repeat(20_000)}` };
        break;
      case 'big-header':
        request = { ...request, extra: [...request.extra, ['X-Padding', 'p'.repeat(20_000)]] };
        break;
      case 'huge-head':
        // Past Node's parser limit: refused before the listener, a target or a header as it comes.
        request = r.absolute
          ? { ...request, target: `${path}?q=${'x'.repeat(90_000)}` }
          : { ...request, extra: [...request.extra, ['X-Padding', 'p'.repeat(90_000)]] };
        break;
      case 'bad-host':
        // HTTP/1.0 may omit Host; every other bad form is refused in both versions.
        request = {
          ...request,
          host: r.badHost,
          version: r.badHost === undefined ? '1.1' : request.version,
          target: path,
        };
        break;
      case 'bad-target':
        request = { ...request, target: r.badTarget };
        break;
      case 'none':
        break;
    }
    return request;
  });
}

/** The request as bytes on the wire. */
export function toBytes(request: TableRequest): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/${request.version}`];
  const hosts =
    request.host === undefined ? [] : typeof request.host === 'string' ? [request.host] : request.host;
  for (const host of hosts) lines.push(`Host: ${host}`);
  if (request.accept !== undefined) lines.push(`Accept: ${request.accept}`);
  for (const [name, value] of request.extra) lines.push(`${name}: ${value}`);
  if (request.version === '1.0') lines.push('Connection: keep-alive');
  let body = Buffer.alloc(0);
  if (request.body) {
    const payload = Buffer.alloc(request.body.size, 'b');
    if (request.body.chunked) {
      lines.push('Transfer-Encoding: chunked');
      body = Buffer.concat([
        Buffer.from(`${payload.length.toString(16)}\r\n`),
        payload,
        Buffer.from('\r\n0\r\n\r\n'),
      ]);
    } else {
      lines.push(`Content-Length: ${payload.length}`);
      body = payload;
    }
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** Is this an API path (the REST handler's), where every error is a problem document? */
export function isApiTarget(path: string): boolean {
  // One trailing slash names the same endpoint (issue 28).
  return path === '/v1' || path.startsWith('/v1/') || /^\/(health|openapi\.json)\/?$/.test(path);
}

/**
 * The status the contract promises, where it promises one: the edge's
 * refusals anywhere, and the REST API's answers on its own paths. Undefined
 * where only the common rules apply (no 5xx, Cache-Control, problem bodies).
 */
export function expectedStatus(request: TableRequest): number | readonly number[] | undefined {
  switch (request.fault) {
    case 'unknown-method':
    case 'connect':
      return 405;
    case 'long-target':
      return 414;
    case 'big-header':
      return 431;
    case 'huge-head':
      // Which part overflowed is a guess once a head spans packets (see src/server/refused-request.ts).
      return [414, 431];
    case 'bad-host':
    case 'bad-target':
      return 400;
    case 'none':
      break;
  }
  if (!isApiTarget(request.path)) return undefined;
  if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return 405;
  const get = API_TARGETS.find(
    ([target]) => target.split('?', 1)[0] === request.path && request.target.endsWith(target),
  )?.[1];
  if (get === undefined) return undefined;
  if (request.method === 'OPTIONS') return get === 404 ? 404 : 204;
  return get;
}

/** Faults after which the server must close the connection (the parser cannot resync, or CONNECT took it). */
export function mustClose(request: TableRequest): boolean {
  return ['unknown-method', 'connect', 'huge-head'].includes(request.fault);
}
