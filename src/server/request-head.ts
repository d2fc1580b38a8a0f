import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '../core/problems.ts';
import {
  badHost,
  badTarget,
  headerTooLarge,
  MAX_HEAD_BYTES,
  MAX_TARGET_BYTES,
  uriTooLong,
} from '../rest/edge-refusals.ts';

/**
 * RFC 3986 `host [ ":" port ]`: an IP literal in brackets or a reg-name
 * (unreserved, percent-encoded and sub-delims characters), then an optional
 * port. WHATWG URL alone is too lenient for a Host header: it would read
 * `a/b` as host `a` with a path, and `u@h` as a user name before the host.
 */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::\d{1,5})?$/;

/** The last Host header values found valid: a server is reached under a few names, and this check ran on every request. */
const validHosts = new Set<string>();
const VALID_HOSTS_SIZE = 64;

/** True when `host` is a Host header value that names an authority (and its port fits 0–65535). */
export function isValidHost(host: string): boolean {
  if (validHosts.has(host)) return true;
  if (!HOST_SYNTAX.test(host) || !URL.canParse(`http://${host}/`)) return false;
  // Bounded like the origins of request-target.ts: a client varying the Host header cannot grow it.
  if (validHosts.size >= VALID_HOSTS_SIZE) validHosts.clear();
  validHosts.add(host);
  return true;
}

/** The origin the connection arrived at, from the socket rather than anything the client sent. */
export function ownOrigin(socket: Socket): string {
  const address = socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort ?? 80}`;
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
export function checkTarget(request: IncomingMessage): ApiError | undefined {
  const head = measureHead(request);
  if ((request.url?.length ?? 0) > MAX_TARGET_BYTES) return uriTooLong(MAX_TARGET_BYTES);
  if (head.bytes > MAX_HEAD_BYTES) return headerTooLarge(MAX_HEAD_BYTES);
  const host = request.headers.host;
  if (head.hostLines > 1) return badHost('repeated');
  if (host === undefined ? request.httpVersion !== '1.0' : !isValidHost(host)) {
    return badHost(host === undefined ? 'missing' : host === '' ? 'empty' : 'invalid');
  }
  const target = request.url ?? '/';
  if (target.startsWith('/')) return undefined;
  if (target === '*') {
    request.url = '/';
    return undefined;
  }
  // RFC 3986 needs a non-empty authority; WHATWG URL would read `http:///health` as host `health`.
  const url = /^https?:\/\/[^/?#\\]/i.test(target) ? URL.parse(target) : null;
  if (!url || url.host === '') return badTarget();
  request.url = `${url.pathname}${url.search}`;
  request.headers.host = url.host;
  return undefined;
}
