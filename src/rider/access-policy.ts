/**
 * The OAuth and account policy of the rider MCP address, in one place so the
 * authorization server, the protected-resource metadata, the 401 challenge and
 * the sign-up and consent pages always agree. Constants only: the pages import
 * this file at build time.
 */

/** Where better-auth is mounted; the authorization server's issuer is `{origin}/api/auth`. */
export const AUTH_BASE_PATH = '/api/auth';

/** The protected resource: the MCP address riders connect their assistants to. */
export const RIDER_RESOURCE_PATH = '/mcp/rider';

/** Read the rider's own data (watchlist, windows, alerts). */
export const SCOPE_READ = 'rider:read';
/** Change the rider's watchlist, records and alert settings. */
export const SCOPE_WRITE = 'rider:write';
/** Ask for a refresh token (RFC 6749 §6), so the assistant stays connected past 15 minutes. */
export const SCOPE_OFFLINE = 'offline_access';

/** Every scope the authorization server grants; no `openid`: this is plain OAuth, not sign-in for other sites. */
export const AUTH_SCOPES = [SCOPE_READ, SCOPE_WRITE, SCOPE_OFFLINE] as const;

/**
 * What the 401 challenge and the metadata suggest a client asks for. MCP
 * clients request these when they have no better idea; `offline_access` is in
 * it or they end up without a refresh token.
 */
export const SUGGESTED_SCOPES: readonly string[] = [...AUTH_SCOPES];

/** Passwords shorter than this are refused at sign-up; passphrases are welcome up to 128 characters. */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

/** Access tokens live 15 minutes: short, because a JWT cannot be recalled before it expires. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** Refresh tokens live 30 days and rotate on every use. */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/**
 * How long a rotated refresh token still answers with the tokens it was
 * rotated into, instead of counting as a replay that revokes the whole grant.
 * An assistant whose access token expired while it runs several tool calls at
 * once refreshes once per call, all with the same token, within milliseconds;
 * one that lost the answer retries within its request timeout (the MCP SDKs
 * give a request 60 s). Inside the interval a reuse only gets the same answer
 * again (never a new token), and after it a reuse still revokes the family, so
 * a stolen token is worth no more than for one minute past its rotation.
 */
export const REFRESH_REUSE_INTERVAL_S = 60;

/** An authorization code is exchanged within seconds by a real client; one minute is plenty. */
export const CODE_TTL_S = 60;

/** The issuer for one public origin. */
export function issuerFor(origin: string): string {
  return `${origin}${AUTH_BASE_PATH}`;
}

/** The resource identifier (RFC 8707) of the rider MCP address for one public origin. */
export function riderResourceFor(origin: string): string {
  return `${origin}${RIDER_RESOURCE_PATH}`;
}

/** RFC 9728 §3.1: the metadata URL inserts the well-known segment before the resource's path. */
export function protectedResourceMetadataUrl(origin: string): string {
  return `${origin}/.well-known/oauth-protected-resource${RIDER_RESOURCE_PATH}`;
}
