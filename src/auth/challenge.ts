/**
 * The answers a protected resource gives a client it refuses (RFC 6750 §3,
 * RFC 9728 §5.1): 401 with a `WWW-Authenticate: Bearer` challenge that points
 * at the protected-resource metadata, or 403 `insufficient_scope` naming the
 * scopes to ask for. Built here rather than by the library so the header
 * carries `error="invalid_token"` exactly when a token was sent.
 */
import { protectedResourceMetadataUrl, SUGGESTED_SCOPES } from '../rider/access-policy.ts';
import { oauthError } from './oauth-error.ts';

/** RFC 6750 quoted-string values: printable ASCII without `"` and `\`. */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?')}"`;
}

/** `Bearer k="v", …` in the order given; absent values are left out. */
export function bearerChallenge(params: Readonly<Record<string, string | undefined>>): string {
  const parts = Object.entries(params).flatMap(([key, value]) =>
    value === undefined ? [] : [`${key}=${quoted(value)}`],
  );
  return `Bearer ${parts.join(', ')}`;
}

/**
 * 401 for a request without a usable token. With no token at all the
 * challenge carries no error code (RFC 6750 §3.1); with a bad, expired,
 * foreign-audience or disconnected one it says `invalid_token`.
 */
export function unauthorizedResponse(origin: string, tokenSent: boolean, description?: string): Response {
  const challenge = bearerChallenge({
    error: tokenSent ? 'invalid_token' : undefined,
    error_description: tokenSent ? description : undefined,
    resource_metadata: protectedResourceMetadataUrl(origin),
    scope: SUGGESTED_SCOPES.join(' '),
  });
  const headers = { 'WWW-Authenticate': challenge };
  return tokenSent
    ? oauthError({
        status: 401,
        error: 'invalid_token',
        description: description ?? 'The access token is not valid here.',
        headers,
      })
    : oauthError({
        status: 401,
        error: 'unauthorized',
        description: 'Sign in: this address needs an OAuth access token.',
        headers,
      });
}

/**
 * 403 for a valid token that lacks scopes this request needs. The challenge's
 * `scope` is what the client should ask for when it re-authorizes: the scopes
 * it holds plus the missing ones, so stepping up never drops a permission.
 */
export function insufficientScopeResponse(
  origin: string,
  missing: readonly string[],
  granted: readonly string[] = [],
): Response {
  const description = `The access token lacks the scope ${missing.join(' ')}.`;
  const wanted = [...new Set([...granted, ...missing])].join(' ');
  const challenge = bearerChallenge({
    error: 'insufficient_scope',
    error_description: description,
    scope: wanted,
    resource_metadata: protectedResourceMetadataUrl(origin),
  });
  return oauthError({
    status: 403,
    error: 'insufficient_scope',
    description,
    extra: { scope: wanted },
    headers: { 'WWW-Authenticate': challenge },
  });
}
