import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ProblemCode } from '../core/problems.ts';

/**
 * The longest request target the server takes (414 beyond). RFC 9112 §3
 * asks servers to take at least 8,000 octets; the API's longest useful URL
 * is a few hundred bytes.
 */
export const MAX_TARGET_BYTES = 8 * 1024;

/** The most bytes of request line and header fields together (431 beyond), as Node's own default. */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * RFC 3986 `host [ ":" port ]`: an IP literal in brackets or a reg-name
 * (unreserved, percent-encoded and sub-delims characters), then an optional
 * port. WHATWG URL alone is too lenient for a Host header: it would read
 * `a/b` as host `a` with a path, and `u@h` as a user name before the host.
 */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** True when `host` is a Host header value that names an authority (and its port fits 0–65535). */
export function isValidHost(host: string): boolean {
  return HOST_SYNTAX.test(host) && URL.canParse(`http://${host}/`);
}

/** The origin the connection arrived at, from the socket rather than anything the client sent. */
export function ownOrigin(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort ?? 80}`;
}

/** Why a request cannot be routed, in the words its problem document uses. */
export interface TargetRefusal {
  readonly code: Extract<ProblemCode, 'bad_request' | 'uri_too_long' | 'header_too_large'>;
  readonly detail: string;
  readonly hint: string;
}

/** The Host lines and the size of the head, in one pass over the raw header list. */
function measureHead(request: IncomingMessage): { hostLines: number; bytes: number } {
  let hostLines = 0;
  let bytes = (request.method?.length ?? 0) + (request.url?.length ?? 0) + 11;
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    bytes += name.length + (raw[i + 1]?.length ?? 0) + 4;
    if (name.length === 4 && name.toLowerCase() === 'host') hostLines += 1;
  }
  return { hostLines, bytes };
}

/**
 * Checks the Host header and the request target before anything routes on
 * them (RFC 9112 §3.2), and rewrites an absolute-form target
 * (`GET http://host/path`, as proxies send) to origin-form with its
 * authority as the Host, so every handler below sees `/path?query`.
 * `*` (only meaningful for OPTIONS) becomes `/`.
 *
 * Refused: a target over {@link MAX_TARGET_BYTES} (414) or a head over
 * {@link MAX_HEAD_BYTES} (431), measured here rather than by Node's parser,
 * which only says that a head overflowed, not which part; then an HTTP/1.1
 * request without Host, more than one Host line, an empty or malformed
 * Host, and an absolute-form target that is not an http(s) URL with a valid
 * authority (400). An HTTP/1.0 request may omit Host.
 */
export function checkTarget(request: IncomingMessage): TargetRefusal | undefined {
  const head = measureHead(request);
  if ((request.url?.length ?? 0) > MAX_TARGET_BYTES) {
    return {
      code: 'uri_too_long',
      detail: `The request target is longer than the ${MAX_TARGET_BYTES / 1024} KB the server reads.`,
      hint: 'Shorten the URL: every API query fits in a few hundred bytes.',
    };
  }
  if (head.bytes > MAX_HEAD_BYTES) {
    return {
      code: 'header_too_large',
      detail: `The request line and headers together exceed ${MAX_HEAD_BYTES / 1024} KB.`,
      hint: 'Send fewer or shorter headers (large cookies are the usual cause).',
    };
  }
  const host = request.headers.host;
  if (head.hostLines > 1) {
    return {
      code: 'bad_request',
      detail: 'The request has more than one Host header.',
      hint: 'Send exactly one Host header naming this server.',
    };
  }
  if (host === undefined ? request.httpVersion !== '1.0' : !isValidHost(host)) {
    return {
      code: 'bad_request',
      detail:
        host === undefined
          ? 'An HTTP/1.1 request needs a Host header.'
          : host === ''
            ? 'The Host header is empty.'
            : 'The Host header is not a valid host name and port.',
      hint: 'Send Host: <name or address>[:port] of this server, e.g. Host: localhost:3000.',
    };
  }
  const target = request.url ?? '/';
  if (target.startsWith('/')) return undefined;
  if (target === '*') {
    request.url = '/';
    return undefined;
  }
  // RFC 3986 needs a non-empty authority; WHATWG URL would read `http:///health` as host `health`.
  const url = /^https?:\/\/[^/?#\\]/i.test(target) ? URL.parse(target) : null;
  if (!url || url.host === '') {
    return {
      code: 'bad_request',
      detail: 'The request target is neither a path nor an http(s) URL with a valid host and port.',
      hint: 'Send an origin-form request such as GET /v1/tailwind with a Host header.',
    };
  }
  request.url = `${url.pathname}${url.search}`;
  request.headers.host = url.host;
  return undefined;
}
