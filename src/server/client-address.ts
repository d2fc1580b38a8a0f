import type { IncomingMessage } from 'node:http';

/**
 * The client's address on `node:http`: the socket's, or, behind a proxy you
 * run (`WOS_TRUST_PROXY`), the first `X-Forwarded-For` entry, which such a
 * proxy sets. One rule for the MCP limits and the REST data endpoints' limit,
 * so a proxy in front of `npm start` never makes every rider one client.
 */
export function clientAddressOf(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',', 1)[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.socket.remoteAddress || 'unknown';
}
