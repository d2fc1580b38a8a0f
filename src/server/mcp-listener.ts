import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerRequest } from 'srvx';
import { toNodeHandler } from 'srvx/node';
import { isAuthPath } from '../auth/auth-routes.ts';
import type { McpService } from '../mcp/mcp-service.ts';

type Http1Listener = (request: IncomingMessage, response: ServerResponse) => unknown;

/** `/mcp`, everything under it, and the sign-in paths belong to the MCP side. */
export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/') || isAuthPath(path);
}

/**
 * The MCP endpoint on `node:http`: the socket's address identifies the
 * client, or, behind a proxy you run (`WOS_TRUST_PROXY`), the first
 * `X-Forwarded-For` entry, which such a proxy sets.
 */
export function mcpListener(handle: McpService['handle'], trustProxy: boolean): Http1Listener {
  const clientAddress = (request: ServerRequest): string => {
    const forwarded = trustProxy
      ? request.headers.get('x-forwarded-for')?.split(',', 1)[0]?.trim()
      : undefined;
    return forwarded || request.ip || 'unknown';
  };
  return toNodeHandler((request) => handle(request, { address: clientAddress(request) })) as Http1Listener;
}
