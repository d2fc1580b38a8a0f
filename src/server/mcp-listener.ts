import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerRequest } from 'srvx';
import { toNodeHandler } from 'srvx/node';
import type { McpEndpoint } from '../mcp/http.ts';

type Http1Listener = (request: IncomingMessage, response: ServerResponse) => unknown;

/** `/mcp` and everything under it belongs to the MCP server. */
export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/');
}

/**
 * The MCP endpoint on `node:http`: the socket's address identifies the
 * client, or, behind a proxy you run (`WOS_TRUST_PROXY`), the first
 * `X-Forwarded-For` entry, which such a proxy sets.
 */
export function mcpListener(endpoint: McpEndpoint, trustProxy: boolean): Http1Listener {
  const clientAddress = (request: ServerRequest): string => {
    const forwarded = trustProxy
      ? request.headers.get('x-forwarded-for')?.split(',', 1)[0]?.trim()
      : undefined;
    return forwarded || request.ip || 'unknown';
  };
  return toNodeHandler((request) => endpoint(request, { address: clientAddress(request) })) as Http1Listener;
}
