/**
 * The header this server sets to the caller's address (from the socket, or
 * from the platform on Vercel) before handing a request on: rate limits and
 * the sign-in throttle count by it. Any copy the client sent is replaced, so
 * it cannot be spoofed.
 */
export const CLIENT_ADDRESS_HEADER = 'x-wos-client';

/**
 * Where one request came from, as the platform (not the client) tells it:
 * the Node listener, the Vercel adapters, the MCP endpoint and the sign-in
 * routes all pass it; it lives here, with the header that carries it.
 */
export interface ClientInfo {
  readonly address: string;
}

/**
 * A copy of the request carrying the caller's address (or none). Built from
 * parts, not `new Request(request)`: a server's request object (srvx on
 * Node) need not be the platform's own `Request` class. The body is copied
 * as bytes, not piped as a stream: every server in front has already
 * bounded it (see `src/server/request-body.ts`; Vercel caps bodies too), and
 * a stream-to-stream copy per request was a fifth of the bytes an MCP call
 * allocated.
 */
export async function withClientAddress(request: Request, address: string | undefined): Promise<Request> {
  // Already carried by the server in front (the Node listener sets it): no copy needed.
  if (request.headers.get(CLIENT_ADDRESS_HEADER) === (address ?? null)) return request;
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  if (address !== undefined) headers.set(CLIENT_ADDRESS_HEADER, address);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(hasBody ? { body: await request.arrayBuffer() } : {}),
  });
}
