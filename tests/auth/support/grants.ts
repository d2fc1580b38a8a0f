/**
 * Whole grants without a browser, for the tests that are about what the
 * servers refuse rather than about the pages.
 */
import { expect } from 'vitest';
import {
  Agent,
  authorizeUrl,
  getJson,
  pkce,
  postForm,
  riderApproves,
  type AsMetadata,
  type Tokens,
} from './oauth.ts';

export interface Rider {
  readonly email: string;
  readonly password: string;
}

export async function metadataOf(origin: string): Promise<AsMetadata> {
  return getJson<AsMetadata>(`${origin}/.well-known/oauth-authorization-server/api/auth`);
}

/** A public client registered by DCR with one redirect URI. */
export async function registerClient(
  metadata: AsMetadata,
  redirectUri: string,
  name = 'Refusals client',
): Promise<string> {
  const response = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return String(((await response.json()) as { client_id: string }).client_id);
}

/** A signed-up rider's agent (its session cookie kept). */
export async function signedUp(origin: string, rider: Rider): Promise<Agent> {
  const agent = new Agent(origin);
  const response = await agent.postJson('/api/auth/sign-up/email', { ...rider, name: rider.email });
  expect(response.status, await response.clone().text()).toBe(200);
  return agent;
}

export interface GrantOptions {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly resource?: string | null;
  readonly scope?: string;
}

/** Authorize (the agent approves), then the code for tokens; returns the token endpoint's answer. */
export async function grant(
  agent: Agent,
  metadata: AsMetadata,
  rider: Rider,
  options: GrantOptions,
): Promise<Response> {
  const { verifier, challenge } = pkce();
  const resource = options.resource === undefined ? `${agent.origin}/mcp/rider` : options.resource;
  const url = authorizeUrl(metadata, { ...options, resource, challenge });
  const landed = await riderApproves(agent, url, rider);
  const code = landed?.searchParams.get('code');
  expect(code, landed?.href).toBeTruthy();
  return postForm(metadata.token_endpoint, {
    grant_type: 'authorization_code',
    code: code ?? '',
    redirect_uri: options.redirectUri,
    client_id: options.clientId,
    code_verifier: verifier,
    resource: resource ?? undefined,
  });
}

export async function tokensFor(
  agent: Agent,
  metadata: AsMetadata,
  rider: Rider,
  options: GrantOptions,
): Promise<Tokens> {
  const response = await grant(agent, metadata, rider, options);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Tokens;
}
