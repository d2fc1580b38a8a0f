/**
 * The OAuth and account policy of the rider MCP address, in one place so the
 * authorization server, the protected-resource metadata, the 401 challenge and
 * the sign-up and consent pages always agree, with the MCP and sign-in paths
 * and body limits the path table (`src/app/paths.ts`) names. Constants only:
 * the pages import this file at build time, and every function imports it
 * without loading the MCP server or the authorization server.
 */

/** Where better-auth is mounted; the authorization server's issuer is `{origin}/api/auth`. */
export const AUTH_BASE_PATH = '/api/auth';

/** The protected resource: the MCP address riders connect their assistants to. */
export const RIDER_RESOURCE_PATH = '/mcp/rider';

/** The public MCP address: no sign-in, the three public tools. */
export const PUBLIC_MCP_PATH = '/mcp';

/** RFC 9728's protected-resource metadata, and RFC 8414's authorization-server metadata. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Dynamic client registration (RFC 7591). */
export const REGISTER_PATH = `${AUTH_BASE_PATH}/oauth2/register`;

/** A registration document is a few hundred bytes; anything this large is not one. */
export const MAX_REGISTRATION_BYTES = 64 * 1024;

/**
 * The largest JSON-RPC message `/mcp` and `/mcp/rider` accept. A tool call is
 * a few hundred bytes; 64 KB leaves room for long place names and clients
 * that send their whole capability list.
 */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/** The two MCP addresses, in the spelling every document names. */
export type McpAddress = typeof PUBLIC_MCP_PATH | typeof RIDER_RESOURCE_PATH;

/**
 * The MCP address a request path names, or undefined. `/mcp/` and
 * `/mcp/rider/` are the same addresses: clients and people configuring them
 * add a trailing slash often enough that refusing it turned a working setup
 * into a 404 on every call, and nothing else could live at those paths. The
 * canonical spelling stays the one the metadata and the docs name.
 */
export function mcpAddressOf(pathname: string): McpAddress | undefined {
  const path = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === PUBLIC_MCP_PATH) return PUBLIC_MCP_PATH;
  if (path === RIDER_RESOURCE_PATH) return RIDER_RESOURCE_PATH;
  return undefined;
}

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

/** How long a password-reset link works: long enough to open the mail, short enough to be useless later. Single use. */
export const RESET_TOKEN_TTL_S = 30 * 60;

/** How long an email verification link works. */
export const VERIFY_TOKEN_TTL_S = 24 * 60 * 60;

/** Reset and verification mails to one address: at most this many per hour, whoever asks (no mail bombing). */
export const ACCOUNT_MAILS_PER_HOUR = 3;

/** The issuer for one public origin. */
export function issuerFor(origin: string): string {
  return `${origin}${AUTH_BASE_PATH}`;
}

/** The resource identifier (RFC 8707) of the rider MCP address for one public origin. */
export function riderResourceFor(origin: string): string {
  return `${origin}${RIDER_RESOURCE_PATH}`;
}

/**
 * Both spellings of the one rider resource: the canonical one, which the
 * metadata names and tokens are issued for by default, and the one with a
 * trailing slash, which a client that was given `/mcp/rider/` may ask a
 * token for (RFC 8707 `resource`). A token for either is good at either.
 */
export function riderResourcesFor(origin: string): readonly [string, string] {
  const resource = riderResourceFor(origin);
  return [resource, `${resource}/`];
}

/** RFC 9728 §3.1: the metadata URL inserts the well-known segment before the resource's path. */
export function protectedResourceMetadataUrl(origin: string): string {
  return `${origin}${PROTECTED_RESOURCE_METADATA_PATH}${RIDER_RESOURCE_PATH}`;
}
