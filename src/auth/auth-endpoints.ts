/**
 * Every HTTP path of the authorization server, as one fetch handler that
 * answers its own paths and returns undefined for the rest, so the
 * composition root can put it beside the settings API and payments
 * (`src/app/rider-endpoints.ts`); which requests reach it is the path table's
 * call (`src/app/paths.ts`):
 *
 * - `/.well-known/oauth-protected-resource[/mcp/rider]` (RFC 9728)
 * - `/.well-known/oauth-authorization-server[/api/auth]` (RFC 8414)
 * - `/api/auth/*` (better-auth: sign-up/in/out, authorize, token, register…)
 */
import { oauthProviderAuthServerMetadata } from '@better-auth/oauth-provider';
import { forSignIn, type ClientInfo } from '../http/client-address.ts';
import { refusalRedirect } from './client-refusal.ts';
import { oauthError, oauthErrorJson } from './oauth-error.ts';
import { createRefreshGrace } from './refresh-grace.ts';
import { CHANGE_PASSWORD_PATH, changeCredentials, RESET_PASSWORD_PATH } from './credential-change.ts';
import { registrationRequest } from './registration.ts';
import { misdirectedResponse, type AuthRegistry } from './registry.ts';
import { protectedResourceMetadata } from './resource.ts';
import {
  AUTH_BASE_PATH,
  AUTHORIZATION_SERVER_METADATA_PATH as ASM,
  PROTECTED_RESOURCE_METADATA_PATH as PRM,
  REGISTER_PATH,
  RIDER_RESOURCE_PATH,
} from '../rider/access-policy.ts';
import { noStoreUnlessSet } from '../http/cache-control.ts';

/** A handler of some paths: undefined for a path it has nothing at (the caller answers 404). */
export type PathHandler = (request: Request, client?: ClientInfo) => Promise<Response | undefined>;

export interface AuthEndpointsOptions {
  readonly registry: AuthRegistry;
}

/** The rider resource's metadata also under `/mcp/rider/`'s RFC 9728 path: a client given that spelling asks there. */
const METADATA_PATHS = new Set([
  PRM,
  `${PRM}${RIDER_RESOURCE_PATH}`,
  `${PRM}${RIDER_RESOURCE_PATH}/`,
  ASM,
  `${ASM}${AUTH_BASE_PATH}`,
]);
const TOKEN_PATH = `${AUTH_BASE_PATH}/oauth2/token`;
const AUTHORIZE_PATH = `${AUTH_BASE_PATH}/oauth2/authorize`;
/** Endpoints a browser-based MCP client calls cross-origin, without cookies. */
const PUBLIC_CLIENT_PATHS = new Set(
  ['/oauth2/token', '/oauth2/register', '/oauth2/revoke', '/jwks'].map((path) => `${AUTH_BASE_PATH}${path}`),
);

function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', '*');
  headers.set('Access-Control-Expose-Headers', 'WWW-Authenticate');
  noStoreUnlessSet(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/** OAuth-style error codes for the statuses the library answers without a body. */
const BODILESS_ERRORS: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'access_denied',
  404: 'not_found',
  405: 'method_not_allowed',
};

/**
 * Every answer of the sign-in paths as the contract wants it: sign-in
 * answers are private (sessions, tokens, the rider's own data), so one that
 * does not say how to cache it gets `no-store`; an error the library sends
 * without a body (an OPTIONS or a method it does not route) gets a JSON
 * error body in the OAuth shape, so a client always has something to read.
 */
export function asContract(response: Response | undefined): Response | undefined {
  if (!response) return response;
  const bodiless = response.status >= 400 && response.body === null;
  if (response.headers.has('Cache-Control') && !bodiless) return response;
  const headers = new Headers(response.headers);
  noStoreUnlessSet(headers);
  if (!bodiless) {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  const error = BODILESS_ERRORS[response.status] ?? 'server_error';
  const description = `The sign-in service answered ${response.status}.`;
  headers.set('Content-Type', 'application/json');
  headers.delete('Content-Length');
  const body = oauthErrorJson({ status: response.status, error, description });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

export function createAuthEndpoints(options: AuthEndpointsOptions): PathHandler {
  const endpoints = authEndpoints(options);
  return async (incoming, client) => asContract(await endpoints(incoming, client));
}

function authEndpoints({ registry }: AuthEndpointsOptions): PathHandler {
  const refreshGrace = createRefreshGrace({ db: registry.store.db });
  return async (incoming, client) => {
    const { pathname } = new URL(incoming.url);
    // The table sends every `/.well-known/oauth-…` path here; only these documents exist.
    if (!pathname.startsWith(`${AUTH_BASE_PATH}/`) && !METADATA_PATHS.has(pathname)) return undefined;
    const origin = registry.originOf(incoming);
    if (!origin) return misdirectedResponse();
    const auth = registry.authFor(origin);
    const publicClientPath = METADATA_PATHS.has(pathname) || PUBLIC_CLIENT_PATHS.has(pathname);
    if (publicClientPath && incoming.method === 'OPTIONS') return preflight();
    const request = forSignIn(incoming, client);
    if (METADATA_PATHS.has(pathname)) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return withCors(
          oauthError({
            status: 405,
            error: 'method_not_allowed',
            description: 'The metadata documents are read with GET.',
            headers: { Allow: 'GET, HEAD, OPTIONS' },
          }),
        );
      }
      if (pathname.startsWith(ASM)) return withCors(await oauthProviderAuthServerMetadata(auth)(request));
      return withCors(Response.json(protectedResourceMetadata(origin)));
    }
    if (pathname === REGISTER_PATH && request.method === 'POST') {
      const registration = await registrationRequest(request);
      if (registration instanceof Response) return withCors(registration);
      return withCors(await auth.handler(registration));
    }
    if (pathname === TOKEN_PATH) return withCors(await refreshGrace(request, auth.handler));
    if (pathname === CHANGE_PASSWORD_PATH || pathname === RESET_PASSWORD_PATH) {
      return changeCredentials(request, registry.store.db, auth.handler);
    }
    const response = await auth.handler(request);
    if (pathname === AUTHORIZE_PATH) return (await refusalRedirect(request, response, origin)) ?? response;
    return publicClientPath ? withCors(response) : response;
  };
}
