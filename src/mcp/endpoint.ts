import {
  createMcpHandler,
  hostHeaderValidationResponse,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { ClientInfo } from '../http/client-address.ts';
import { resolveUrls, type ApiConfig } from '../http/public-urls.ts';
import type { McpConfig } from './endpoint-guard.ts';
import type { Caller, McpDeps, RiderCaller } from './context.ts';
import type { CallAllowance } from '../service/call-allowance.ts';
import { createRateLimiter } from './rate-limit.ts';
import { authInfoOf, buildServer } from './build-server.ts';
import { calledToolOf, readMcpBody, refusedBody } from './request-body.ts';
import { createServerPool } from './server-pool.ts';
import { MCP_MAX_BODY_BYTES } from '../rider/access-policy.ts';
import { JSON_RPC_CODES, jsonRpcErrorJson } from './json-rpc-error.ts';
import type { ToolDefinition } from './tool.ts';
import { CACHE, noStoreUnlessSet } from '../http/cache-control.ts';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';

/** What a browser-based MCP client must be able to read from our answers. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After';

export interface McpEndpointOptions {
  readonly deps: McpDeps;
  readonly api: ApiConfig;
  readonly mcp: McpConfig;
  readonly tools: readonly ToolDefinition[];
  /** The per-connection limit; defaults to an in-memory one of `mcp.ratePerMinute` and `mcp.rateBurst`. */
  readonly limiter?: CallAllowance;
  /**
   * For the rider address: verifies the bearer token and names the rider, or
   * answers the request itself (401/403 with the OAuth challenge). `tool` is
   * the tool a `tools/call` names, read from the body the endpoint has
   * parsed once (undefined for anything else).
   */
  readonly authenticate?: (request: Request, tool: string | undefined) => Promise<RiderCaller | Response>;
}

export type { ClientInfo };

export type McpEndpoint = (request: Request, client: ClientInfo) => Promise<Response>;

const ANONYMOUS: Caller = { kind: 'anonymous' };

/** The per-connection limit counts per OAuth grant for riders, per client address otherwise. */
function limitKeyOf(caller: Caller, address: string): string {
  return caller.kind === 'rider' ? `grant:${caller.grantId}` : `ip:${address}`;
}

/**
 * Someone who pastes the MCP address into a browser gets the page that
 * explains it; MCP clients never ask for HTML (a 2025 stream asks for
 * `text/event-stream`, everything else is a POST).
 */
function isBrowserVisit(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return request.method === 'GET' && accept.includes('text/html') && !accept.includes('text/event-stream');
}

function corsHeaders(request: Request): Headers {
  const headers = new Headers({ 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' });
  const origin = request.headers.get('origin');
  headers.set('Access-Control-Allow-Origin', origin ?? '*');
  return headers;
}

function withHeaders(response: Response, extra: Headers): Response {
  try {
    // The SDK's own responses are mutable: set the headers in place rather than copy the response.
    extra.forEach((value, name) => response.headers.set(name, value));
    noStoreUnlessSet(response.headers);
    return response;
  } catch {
    // An immutable response (a fetched or redirect one): copy it.
  }
  const headers = new Headers(response.headers);
  extra.forEach((value, name) => headers.set(name, value));
  noStoreUnlessSet(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The MCP endpoint as a fetch handler: DNS-rebinding guards (Host, then
 * Origin) first, CORS for browser clients, then the SDK's stateless handler,
 * which serves both the 2026-07-28 protocol and 2025-era clients. Tools see
 * the facts of their own request (its origin fills unset public URLs), handed
 * to the SDK with the request; the servers themselves are reused.
 */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { deps, api, mcp, tools, authenticate } = options;
  const limiter =
    options.limiter ?? createRateLimiter({ perMinute: mcp.ratePerMinute, burst: mcp.rateBurst });
  const anyHost = mcp.allowedHosts.includes('*');
  const anyOrigin = mcp.allowedOrigins.includes('*');
  const allowedHosts = [...mcp.allowedHosts];
  const originHosts = [...allowedHosts, ...mcp.allowedOrigins];
  const pool = createServerPool(() =>
    // The rider address lists the Pro-only fields; its callers are all riders.
    buildServer({ tools, deps, audience: { pro: authenticate !== undefined }, limiter }),
  );
  const handler = createMcpHandler(({ era }) => pool.take(era), {
    legacy: 'stateless',
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });

  const serve: McpEndpoint = async (request, client) => {
    const cors = corsHeaders(request);
    const refused =
      (anyHost ? undefined : hostHeaderValidationResponse(request, allowedHosts)) ??
      (anyOrigin ? undefined : originValidationResponse(request, originHosts));
    if (refused) return withHeaders(refused, new Headers({ 'Cache-Control': CACHE.none }));
    if (isBrowserVisit(request)) {
      const docs = resolveUrls(api, new URL(request.url)).mcpDocs;
      return new Response(null, {
        status: 302,
        headers: { Location: docs, 'Cache-Control': CACHE.none, Vary: 'Accept' },
      });
    }
    if (request.method === 'OPTIONS') {
      cors.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
      cors.set('Access-Control-Allow-Headers', request.headers.get('access-control-request-headers') ?? '*');
      cors.set('Access-Control-Max-Age', '86400');
      // The answer echoes the request's headers and Origin: browsers keep it (Max-Age), shared caches must not.
      cors.set('Cache-Control', CACHE.none);
      return new Response(null, { status: 204, headers: cors });
    }
    // The body is read and parsed once, here: the scope check reads the tool from it and the SDK takes it parsed.
    const body = await readMcpBody(request, MCP_MAX_BODY_BYTES);
    let caller: Caller = ANONYMOUS;
    if (authenticate) {
      const rider = await authenticate(request, calledToolOf(body));
      if (rider instanceof Response) return withHeaders(rider, cors);
      caller = rider;
    }
    const bodyRefused = refusedBody(body, MCP_MAX_BODY_BYTES);
    if (bodyRefused) return withHeaders(bodyRefused, cors);
    const authInfo = authInfoOf({
      caller,
      urls: resolveUrls(api, new URL(request.url)),
      limitKey: limitKeyOf(caller, client.address),
    });
    const answer =
      body.kind === 'message'
        ? handler.fetch(request, { authInfo, parsedBody: body.message })
        : // Empty or not JSON: the SDK reads the text as it would have and answers it the same way.
          handler.fetch(
            body.kind === 'text'
              ? new Request(request.url, {
                  method: request.method,
                  headers: request.headers,
                  body: body.text,
                })
              : request,
            { authInfo },
          );
    return withHeaders(await answer, cors);
  };
  return async (request, client) => {
    try {
      return await serve(request, client);
    } catch (error) {
      console.error('MCP endpoint failed:', error);
      return new Response(jsonRpcErrorJson(JSON_RPC_CODES.internalError, 'Internal error; try again.'), {
        status: 500,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': CACHE.none },
      });
    }
  };
}
