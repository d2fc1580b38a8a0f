/**
 * The assistant's side of the protocol, driven with fetch: discovery from a
 * 401, PKCE, registration, the token endpoint. Plus a cookie-keeping agent
 * for the rider's side where a test needs no real browser.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface AsMetadata {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly registration_endpoint: string;
  readonly revocation_endpoint: string;
  readonly code_challenge_methods_supported: readonly string[];
  readonly client_id_metadata_document_supported?: boolean;
  readonly grant_types_supported: readonly string[];
}

export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The `resource_metadata` URL of a Bearer challenge. */
export function resourceMetadataUrl(challenge: string | null): string | undefined {
  return /resource_metadata="([^"]+)"/.exec(challenge ?? '')?.[1];
}

export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export interface AuthorizeParams {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly resource?: string | null;
  readonly challenge?: string | null;
  readonly method?: string;
  readonly scope?: string;
  readonly state?: string;
}

export function authorizeUrl(metadata: AsMetadata, params: AuthorizeParams): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    scope: params.scope ?? 'rider:read offline_access',
    state: params.state ?? randomBytes(8).toString('hex'),
  });
  if (params.challenge !== null) {
    query.set('code_challenge', params.challenge ?? pkce().challenge);
    query.set('code_challenge_method', params.method ?? 'S256');
  }
  if (params.resource) query.set('resource', params.resource);
  return `${metadata.authorization_endpoint}?${query}`;
}

export function postForm(url: string, fields: Record<string, string | undefined>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body.set(key, value);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
  });
}

export interface Tokens {
  readonly access_token: string;
  readonly refresh_token?: string;
  readonly expires_in: number;
  readonly scope: string;
  readonly token_type: string;
}

/** The rider MCP stub: 200 `{ caller }` or the refusal. */
export function callRider(origin: string, token: string | undefined, need?: string): Promise<Response> {
  const query = need ? `?need=${encodeURIComponent(need)}` : '';
  return fetch(`${origin}/mcp/rider${query}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

/** A rider's browser without the browser: keeps cookies, sends Origin on POSTs, never follows redirects. */
export class Agent {
  readonly cookies = new Map<string, string>();
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async fetch(path: string, init: RequestInit & { origin?: string | null } = {}): Promise<Response> {
    const url = new URL(path, this.origin);
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && url.origin === this.origin) headers.set('cookie', this.cookieHeader);
    const sendOrigin = init.origin === undefined ? this.origin : init.origin;
    if ((init.method ?? 'GET') !== 'GET' && sendOrigin !== null) headers.set('origin', sendOrigin);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  postJson(path: string, body: unknown, origin?: string | null): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(origin === undefined ? {} : { origin }),
    });
  }
}

/** Where the server sends the browser next: a 302 Location, or `{ url }` for fetch-mode requests. */
export async function nextUrl(response: Response, base: string): Promise<URL | undefined> {
  const location = response.headers.get('location');
  if (location) return new URL(location, base);
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { url?: string } | null;
  return body?.url ? new URL(body.url, base) : undefined;
}

/**
 * The rider's part without a browser: follow authorize to the login page,
 * sign up (or in), allow (or deny) on the consent page; returns where the
 * browser lands (the client's redirect URI with `code` or `error`).
 */
export async function riderApproves(
  agent: Agent,
  url: string,
  rider: { email: string; password: string; signUp?: boolean },
  accept = true,
): Promise<URL | undefined> {
  let next = await nextUrl(await agent.fetch(url, { headers: { accept: 'text/html' } }), agent.origin);
  if (next?.pathname === '/login') {
    const path = rider.signUp ? '/api/auth/sign-up/email' : '/api/auth/sign-in/email';
    const body = {
      email: rider.email,
      password: rider.password,
      name: rider.email,
      oauth_query: next.search.slice(1),
    };
    next = await nextUrl(await agent.postJson(path, body), agent.origin);
  }
  if (next?.pathname === '/consent') {
    const answer = await agent.postJson('/api/auth/oauth2/consent', {
      accept,
      oauth_query: next.search.slice(1),
    });
    next = await nextUrl(answer, agent.origin);
  }
  return next;
}
