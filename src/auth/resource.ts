/**
 * `/mcp/rider` as an OAuth 2.1 protected resource: its RFC 9728 metadata and
 * the check in front of every request. A request passes when its bearer token
 * is a JWT signed by our authorization server, issued for this origin, meant
 * for this resource (RFC 8707 audience), unexpired, carrying the scopes the
 * request needs, and its grant still exists (the rider has not disconnected
 * the assistant since the token was minted).
 */
import { requestToResourceInput, verifyAccessTokenRequest } from 'better-auth/oauth2';
import type { Kysely } from 'kysely';
import type { RiderCaller } from '../rider/rider-caller.ts';
import type { Database } from '../store/schema.ts';
import type { Auth } from './auth.ts';
import { insufficientScopeResponse, unauthorizedResponse } from './challenge.ts';
import { ensureRider } from '../rider/rider-account.ts';
import {
  AUTH_SCOPES,
  SCOPE_READ,
  issuerFor,
  riderResourceFor,
  riderResourcesFor,
} from '../rider/access-policy.ts';
import { readList, withAuthTables } from '../store/auth-tables.ts';

/** RFC 9728 protected-resource metadata for the rider MCP address of one origin. */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: riderResourceFor(origin),
    authorization_servers: [issuerFor(origin)],
    scopes_supported: [...AUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'wind-on-segment rider MCP',
    resource_documentation: `${origin}/docs/mcp`,
  };
}

export interface VerifyRiderOptions {
  readonly auth: Auth;
  readonly db: Kysely<Database>;
  /** The public origin the request was served under (issuer and audience derive from it). */
  readonly origin: string;
  /** Scopes this request needs; `rider:read` when not given. */
  readonly requiredScopes?: readonly string[];
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

function hasToken(request: Request): boolean {
  return /^(bearer|dpop)\s+\S/i.test(request.headers.get('authorization') ?? '');
}

/**
 * Verifies the request's access token and names the rider, or answers the
 * request itself: 401 (missing, bad, expired, foreign or disconnected token)
 * or 403 (insufficient scope), each with its `WWW-Authenticate` challenge.
 * Costs one local signature check and one indexed read per request.
 */
export async function verifyRiderRequest(
  request: Request,
  { auth, db, origin, requiredScopes = [SCOPE_READ] }: VerifyRiderOptions,
): Promise<RiderCaller | Response> {
  if (!hasToken(request)) return unauthorizedResponse(origin, false);
  let claims: Record<string, unknown>;
  try {
    claims = await verifyAccessTokenRequest(requestToResourceInput(request), {
      // Either spelling of the address is the one resource (`riderResourcesFor`).
      verifyOptions: { issuer: issuerFor(origin), audience: [...riderResourcesFor(origin)] },
      // In-process keys: no HTTP round trip to ourselves, the same on Vercel.
      jwksFetch: () => auth.api.getJwks(),
      jwksCacheKey: auth,
    });
  } catch (error) {
    if (statusOf(error) === 401)
      return unauthorizedResponse(origin, true, 'The access token is not valid here.');
    throw error;
  }
  const riderId = claims['sub'];
  const clientId = claims['azp'] ?? claims['client_id'];
  if (typeof riderId !== 'string' || typeof clientId !== 'string') {
    return unauthorizedResponse(origin, true, 'The access token names no rider.');
  }
  const authDb = withAuthTables(db);
  const grant = await authDb
    .selectFrom('oauthConsent as consent')
    .leftJoin('rider', 'rider.id', 'consent.userId')
    .select(['consent.id as grantId', 'rider.id as riderRow'])
    .where('consent.userId', '=', riderId)
    .where('consent.clientId', '=', clientId)
    .executeTakeFirst();
  if (!grant) return unauthorizedResponse(origin, true, 'The rider disconnected this assistant.');
  if (grant.riderRow === null) {
    const user = await authDb
      .selectFrom('user')
      .select(['id', 'email', 'createdAt'])
      .where('id', '=', riderId)
      .executeTakeFirst();
    if (!user) return unauthorizedResponse(origin, true, 'The rider account no longer exists.');
    await ensureRider(db, user);
  }
  const scopes = typeof claims['scope'] === 'string' ? readList(claims['scope']) : [];
  const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
  if (missing.length > 0) return insufficientScopeResponse(origin, missing, scopes);
  return { kind: 'rider', riderId, grantId: grant.grantId, clientId, scopes };
}
