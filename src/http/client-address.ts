import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * Where one request came from, as the platform (not the client) tells it:
 * the Node listener from the socket (or `X-Forwarded-For` behind a proxy you
 * run), the Vercel function from `x-real-ip`. It travels beside the request,
 * as an argument from the listener or function to each handler that counts
 * by it (the MCP rate limit, the sign-in throttle), never inside a copy of
 * the request.
 */
export interface ClientInfo {
  readonly address: string;
}

/**
 * The client's address on `node:http` (`npm start`): the socket's, or,
 * behind a proxy you run (`WOS_TRUST_PROXY`), the first `X-Forwarded-For`
 * entry, which such a proxy sets. One rule for the MCP limits and the REST
 * data endpoints' limit, so a proxy in front of `npm start` never makes every
 * rider one client.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',', 1)[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.socket.remoteAddress || 'unknown';
}

/**
 * The client's address in a Vercel function: the platform names the caller
 * in `x-real-ip` (a client cannot set it; Vercel overwrites it). Undefined
 * when absent, which only a local run of the function sees. Takes web or
 * Node headers, so a function keeps the rule whichever handler form it has.
 */
export function platformClientAddress(headers: Headers | IncomingHttpHeaders): string | undefined {
  const value = isWebHeaders(headers) ? headers.get('x-real-ip') : headers['x-real-ip'];
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/**
 * Web headers told from Node's by their `get` method, not by `instanceof Headers`: the first read of
 * the global `Headers` in a process loads undici (about 20 ms of CPU), which the REST function's Node
 * handler otherwise never needs (decision 0045). A Node header value is a string or a list of strings,
 * never a function, so a header named `get` cannot pass for the method.
 */
function isWebHeaders(headers: Headers | IncomingHttpHeaders): headers is Headers {
  return typeof (headers as Partial<Headers>).get === 'function';
}

/**
 * The header better-auth reads the caller's address from
 * (`advanced.ipAddress.ipAddressHeaders` in `src/auth/auth.ts`): the one
 * consumer that can only be told through the request itself.
 */
export const CLIENT_ADDRESS_HEADER = 'x-wos-client';

/**
 * The request as better-auth must see it: {@link CLIENT_ADDRESS_HEADER} set
 * to the address the platform gave (any copy the client sent replaced or
 * removed, so it cannot be spoofed). The header is set in place: a request's
 * headers are mutable (the fetch spec's `request` guard), so nothing is
 * copied. Only a request with immutable headers (none of ours; a test double
 * could send one) is wrapped, and then its body is handed on as a stream,
 * never read.
 */
export function forSignIn(request: Request, client: ClientInfo | undefined): Request {
  try {
    if (client) request.headers.set(CLIENT_ADDRESS_HEADER, client.address);
    else request.headers.delete(CLIENT_ADDRESS_HEADER);
    return request;
  } catch {
    const headers = new Headers(request.headers);
    if (client) headers.set(CLIENT_ADDRESS_HEADER, client.address);
    else headers.delete(CLIENT_ADDRESS_HEADER);
    // From parts: a server's request object (srvx on Node) need not be the platform's `Request`.
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return new Request(request.url, {
      method: request.method,
      headers,
      ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
    } as RequestInit);
  }
}
