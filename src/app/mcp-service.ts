/**
 * The MCP side as one handler: `/mcp`, `/mcp/rider` (the rider tools behind a
 * token with the scopes each tool needs) and the rider's HTTP paths, told
 * apart by the path table (`paths.ts`).
 */
import type { Redis } from 'ioredis';
import type { PathHandler } from '../auth/auth-endpoints.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ClientInfo } from '../http/client-address.ts';
import type { McpDeps } from '../mcp/context.ts';
import type { McpConfig } from '../mcp/endpoint-guard.ts';
import { createMcpEndpoint, type McpEndpoint } from '../mcp/endpoint.ts';
import { RIDER_ADDRESS_TOOLS } from '../mcp/tools/rider/index.ts';
import { SCOPE_READ, SCOPE_WRITE } from '../rider/access-policy.ts';
import type { Store } from '../store/database.ts';
import { ApiError } from '../core/problems.ts';
import { problemReply } from '../rest/problem-reply.ts';
import { edgeErrorResponse } from './edge-errors.ts';
import { PARTS, partOf } from './paths.ts';
import type { Settings } from './settings.ts';
import { sharedMcpLimiter } from './shared-limits.ts';

/** What the rider side adds to the public address: the store, the rider address and the rider's paths. */
export interface RiderServices {
  readonly store: Store;
  readonly endpoint: McpEndpoint;
  readonly endpoints: PathHandler;
}

/** Tools that change the rider's data (not read-only) need `rider:write`; the rest `rider:read`. */
const WRITE_TOOLS = new Set(
  RIDER_ADDRESS_TOOLS.filter((t) => t.annotations.readOnlyHint !== true).map((t) => t.name),
);

/**
 * The check in front of `/mcp/rider`: a call to a tool that writes needs the
 * write scope, so a read-only grant gets the OAuth `insufficient_scope` 403
 * (with the scopes to ask for) before any tool runs. The tool's name comes
 * from the body the endpoint has parsed once for the SDK too.
 */
function scopedAuthenticate(auth: AuthService) {
  const writer = auth.authenticator([SCOPE_READ, SCOPE_WRITE]);
  return (request: Request, tool: string | undefined) =>
    (tool && WRITE_TOOLS.has(tool) ? writer : auth.authenticate)(request);
}

export interface McpService {
  /** Answers `/mcp`, `/mcp/rider` (each also with a trailing slash) and the sign-in paths; any other path it is given is a 404. */
  readonly handle: (request: Request, client: ClientInfo) => Promise<Response>;
  /** The rider services, opened on first use (`npm start` opens them at start to fail early). */
  readonly rider: () => Promise<RiderServices>;
}

/**
 * The one 404 of the MCP side, for `npm start` and the Vercel function alike:
 * the same problem document as every other unknown path (no OAuth client
 * reads it, so it need not have the OAuth error shape), rendered by the REST
 * API's renderer so it carries the same headers as every other problem the
 * service sends: CORS for browser clients, the cache policy of a 404.
 */
function notFound(request: Request): Response {
  const url = new URL(request.url);
  const error = new ApiError('not_found', {
    detail: 'There is no MCP address here.',
    hint: 'Connect to /mcp, or to /mcp/rider when signed in.',
  });
  const { status, headers, body } = problemReply(error, url.pathname.slice(0, 256), `${url.origin}/docs`);
  return new Response(request.method === 'HEAD' ? null : body, { status, headers });
}

/** A 503 in the style of the path's part (problem, OAuth or JSON-RPC), retried by the next request. */
function unavailable(error: unknown, request: Request): Response {
  console.error('Rider services unavailable:', error);
  const failure = {
    code: 'temporarily_unavailable',
    detail: 'The rider services could not be opened.',
    hint: 'Try again in half a minute.',
  } as const;
  return edgeErrorResponse(request, failure, { 'Retry-After': '30' });
}

export interface McpServiceParts {
  /** The public address, built on first use. */
  readonly publicEndpoint: () => Promise<McpEndpoint>;
  /** Opens the store and builds the authorization server and the rider address on it. */
  readonly openRider: () => Promise<RiderServices>;
}

/**
 * The whole MCP side as one fetch handler, for `npm start` and one Vercel
 * function. The public address never waits for the store: the rider side
 * (store, migrations, authorization server) opens on its first request, and
 * a failure there is a 503 that the next request retries.
 */
export function createMcpService({ publicEndpoint, openRider }: McpServiceParts): McpService {
  let opening: Promise<RiderServices> | undefined;
  const rider = () => {
    opening ??= openRider().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const handle = async (request: Request, client: ClientInfo): Promise<Response> => {
    const part = partOf(new URL(request.url).pathname);
    if (part === 'mcp-public') return (await publicEndpoint())(request, client);
    if (part !== 'mcp-rider' && part !== 'sign-in' && part !== 'rider-api' && part !== 'billing') {
      return notFound(request);
    }
    let services: RiderServices;
    try {
      services = await rider();
    } catch (error) {
      return unavailable(error, request);
    }
    if (part === 'mcp-rider') return services.endpoint(request, client);
    return (await services.endpoints(request, client)) ?? notFound(request);
  };
  return { handle, rider };
}

/** The rider address over the store, with the rider's paths beside it. */
export async function openRiderSide(
  settings: Settings,
  store: Store,
  { auth, endpoints }: { readonly auth: AuthService; readonly endpoints: PathHandler },
  deps: McpDeps,
  mcp: McpConfig,
  redis: Redis | undefined,
): Promise<RiderServices> {
  const endpoint = createMcpEndpoint({
    ...(await sharedMcpLimiter(redis, mcp, PARTS['mcp-rider'].rate)),
    deps: { ...deps, store },
    api: settings.urls,
    mcp,
    tools: RIDER_ADDRESS_TOOLS,
    authenticate: scopedAuthenticate(auth),
  });
  return { store, endpoint, endpoints };
}
