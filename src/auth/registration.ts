/**
 * Dynamic client registration (RFC 7591) as MCP clients actually send it.
 * better-auth follows OpenID DCR, where a client without `application_type`
 * is a "web" client that must redirect to https on a public host; 2025-era
 * MCP clients register `http://localhost:PORT/callback` without saying they
 * are native apps and would be refused. RFC 8252 §7.3 says loopback redirects
 * are what native apps use, so the type is filled in when every redirect URI
 * is loopback. Clients that omit `grant_types` also get `refresh_token`, or
 * they could never stay connected past the first access token.
 */
import { readBoundedText } from '../http/bounded-body.ts';
import { MAX_REGISTRATION_BYTES } from '../rider/access-policy.ts';
import { oauthError } from './oauth-error.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackRedirect(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const url = URL.parse(value);
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** The registration body with MCP-friendly defaults; anything else is passed on untouched. */
export function withNativeDefaults(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  const redirects = fields['redirect_uris'];
  const loopbackOnly =
    Array.isArray(redirects) && redirects.length > 0 && redirects.every(isLoopbackRedirect);
  return {
    ...fields,
    ...(fields['application_type'] === undefined && loopbackOnly ? { application_type: 'native' } : {}),
    ...(fields['grant_types'] === undefined ? { grant_types: ['authorization_code', 'refresh_token'] } : {}),
  };
}

/**
 * A copy of a registration request with {@link withNativeDefaults} applied,
 * or a 413 answer for an oversized body. Bodies that are not JSON are passed
 * on as they came, for the library to refuse in its own words.
 */
export async function registrationRequest(request: Request): Promise<Request | Response> {
  // Read up to the limit only: a Vercel function has no Node listener in front to bound the body.
  const text = await readBoundedText(request, MAX_REGISTRATION_BYTES);
  if (text === undefined) {
    return oauthError({
      status: 413,
      error: 'invalid_client_metadata',
      description: 'The registration document is too large.',
    });
  }
  let body = text;
  try {
    body = JSON.stringify(withNativeDefaults(JSON.parse(text)));
  } catch {
    // Not JSON: forwarded unchanged.
  }
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: request.method, headers, body });
}
