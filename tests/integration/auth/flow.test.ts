/**
 * The whole connection of an assistant to the rider MCP address, driven the
 * way an MCP client and a rider do it: a 401 leads to the protected-resource
 * and authorization-server metadata, the client registers (DCR) or is known
 * by its URL (CIMD), the rider signs up or in and allows it in Chromium, the
 * client trades the code (PKCE) for tokens, calls `/mcp/rider`, rotates its
 * refresh token, and is refused on the next call once the rider disconnects
 * it in settings. On SQLite, and on PostgreSQL when a server answers.
 */
import { sql } from 'kysely';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REFRESH_REUSE_INTERVAL_S } from '../../../src/rider/access-policy.ts';
import { DAY_S } from '../../../src/core/rider-rules.ts';
import { TRIAL_DAYS } from '../../../src/core/plans.ts';
import { findRiderById } from '../../../src/store/repositories/riders.ts';
import { postgresUnavailable } from '../../store/postgres-server.ts';
import { launchBrowser } from '../../support/browser/launch.ts';
import {
  authorizeUrl,
  callRider,
  getJson,
  pkce,
  postForm,
  resourceMetadataUrl,
  type AsMetadata,
  type Tokens,
} from '../../auth/support/oauth.ts';
import { startPageHost, type PageHost } from '../../auth/support/pages.ts';
import {
  CIMD_HOST,
  startAuthServer,
  startCallbackServer,
  type AuthServer,
  type CallbackServer,
} from '../../auth/support/server.ts';
import { postgresTestStore, sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';

const EMAIL = 'rider@example.com';
const PASSWORD = 'a long rider passphrase';
/** Markup and quotes in a client-chosen name must come out as text. */
const DCR_NAME = 'Trail "Buddy" <b>assistant</b> & co';
const CIMD_NAME = 'CIMD test assistant';
const CIMD_ID = `https://${CIMD_HOST}/client.json`;

const postgresSkip = await postgresUnavailable();
const engines = [
  { engine: 'sqlite', open: sqliteTestStore, skip: null },
  { engine: 'postgres', open: postgresTestStore, skip: postgresSkip },
] as const;

let browser: Browser;
let pages: PageHost;
beforeAll(async () => {
  [browser, pages] = await Promise.all([launchBrowser(), startPageHost()]);
});
afterAll(async () => {
  await browser?.close();
  await pages?.stop();
});

const claims = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

for (const { engine, open, skip } of engines) {
  describe.skipIf(skip !== null)(
    `connecting an assistant (${engine}${skip ? `, skipped: ${skip}` : ''})`,
    () => {
      let db: TestStore;
      let server: AuthServer;
      let callback: CallbackServer;
      let metadata: AsMetadata;
      let resource: string;
      let riderContext: BrowserContext;
      let dcrClient: string;
      let dcrTokens: Tokens;
      let cimdTokens: Tokens;

      beforeAll(async () => {
        db = await open();
        [server, callback] = await Promise.all([
          startAuthServer({ store: db.store, pages: pages.handle }),
          startCallbackServer(),
        ]);
        riderContext = await browser.newContext();
      });
      afterAll(async () => {
        await riderContext?.close();
        await Promise.all([server?.close(), callback?.close()]);
        await db?.dispose();
      });

      /** In Chromium: from the authorize URL through sign-up or sign-in and consent, back to the client. */
      async function connectInBrowser(
        page: Page,
        url: string,
        clientName: string,
        signUp: boolean,
      ): Promise<URL> {
        await page.goto(url);
        await page.waitForURL((at) => at.pathname === '/login');
        if (signUp) {
          await page.getByRole('link', { name: 'Create a rider account' }).click();
          await page.waitForURL((at) => at.pathname === '/signup' && at.searchParams.has('sig'));
        }
        await page.getByLabel('Email', { exact: true }).fill(EMAIL);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: signUp ? 'Create account' : 'Sign in' }).click();
        await page.waitForURL((at) => at.pathname === '/consent');
        await expect.poll(() => page.locator('#consent-client').textContent()).toBe(clientName);
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL((at) => at.href.startsWith(callback.redirectUri));
        return new URL(page.url());
      }

      async function exchange(clientId: string, code: string, verifier: string): Promise<Tokens> {
        const response = await postForm(metadata.token_endpoint, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: callback.redirectUri,
          client_id: clientId,
          code_verifier: verifier,
          resource,
        });
        expect(response.status, await response.clone().text()).toBe(200);
        return (await response.json()) as Tokens;
      }

      it('answers a call without a token with 401 and finds both metadata documents from it', async () => {
        const refused = await callRider(server.origin, undefined);
        expect(refused.status).toBe(401);
        const challenge = refused.headers.get('www-authenticate');
        expect(challenge).toMatch(/^Bearer /);
        expect(challenge).not.toContain('error=');
        const prmUrl = resourceMetadataUrl(challenge);
        expect(prmUrl).toBe(`${server.origin}/.well-known/oauth-protected-resource/mcp/rider`);
        const prm = await getJson<{ resource: string; authorization_servers: string[] }>(prmUrl ?? '');
        resource = prm.resource;
        expect(resource).toBe(`${server.origin}/mcp/rider`);
        const issuer = new URL(prm.authorization_servers[0] ?? '');
        metadata = await getJson<AsMetadata>(
          `${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`,
        );
        expect(metadata.issuer).toBe(issuer.href);
        expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
        expect(metadata.client_id_metadata_document_supported).toBe(true);
        expect(metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
        expect(await getJson(`${server.origin}/.well-known/oauth-authorization-server`)).toEqual(metadata);
        expect(await getJson(`${server.origin}/.well-known/oauth-protected-resource`)).toEqual(prm);
      });

      it('registers one client by DCR and knows another by its metadata document URL (CIMD)', async () => {
        const response = await fetch(metadata.registration_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // As 2025-era clients send it: no application_type, no grant_types.
          body: JSON.stringify({
            client_name: DCR_NAME,
            redirect_uris: [callback.redirectUri],
            token_endpoint_auth_method: 'none',
          }),
        });
        expect(response.status, await response.clone().text()).toBe(201);
        const registered = (await response.json()) as Record<string, unknown>;
        expect(registered).toMatchObject({ client_name: DCR_NAME, application_type: 'native' });
        expect(registered['grant_types']).toEqual(['authorization_code', 'refresh_token']);
        expect(registered['client_secret']).toBeUndefined();
        dcrClient = String(registered['client_id']);
        server.cimdDocs.set('/client.json', {
          client_id: CIMD_ID,
          client_name: CIMD_NAME,
          redirect_uris: [callback.redirectUri],
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        });
      });

      it('signs a new rider up and takes their consent in Chromium, then issues a 15-minute JWT for /mcp/rider', async () => {
        const { verifier, challenge } = pkce();
        const page = await riderContext.newPage();
        const url = authorizeUrl(metadata, {
          clientId: dcrClient,
          redirectUri: callback.redirectUri,
          resource,
          challenge,
          state: 'dcr-1',
        });
        const landed = await connectInBrowser(page, url, DCR_NAME, true);
        expect(landed.searchParams.get('state')).toBe('dcr-1');
        expect(landed.searchParams.get('iss')).toBe(metadata.issuer);
        dcrTokens = await exchange(dcrClient, landed.searchParams.get('code') ?? '', verifier);
        expect(dcrTokens).toMatchObject({
          token_type: 'Bearer',
          expires_in: 900,
          scope: 'rider:read offline_access',
        });
        expect(dcrTokens.refresh_token).toBeTruthy();
        const jwt = claims(dcrTokens.access_token);
        expect(jwt).toMatchObject({ aud: resource, iss: metadata.issuer, azp: dcrClient });
        expect(Number(jwt['exp']) - Number(jwt['iat'])).toBe(900);
        await page.close();
      });

      it('lets the token call /mcp/rider as the rider, whose account got the Pro trial', async () => {
        const response = await callRider(server.origin, dcrTokens.access_token);
        expect(response.status).toBe(200);
        const { caller } = (await response.json()) as { caller: Record<string, unknown> };
        expect(caller).toMatchObject({
          kind: 'rider',
          clientId: dcrClient,
          scopes: ['rider:read', 'offline_access'],
        });
        expect(caller['riderId']).toBe(claims(dcrTokens.access_token)['sub']);
        expect(typeof caller['grantId']).toBe('string');
        const rider = await findRiderById(db.store.db, String(caller['riderId']));
        expect(rider).toMatchObject({ email: EMAIL, plan: 'free' });
        expect((rider?.trialEndsAt ?? 0) - (rider?.createdAt ?? 0)).toBe(TRIAL_DAYS * DAY_S);
      });

      it('signs the same rider in for the CIMD client in a fresh browser', async () => {
        const { verifier, challenge } = pkce();
        const context = await browser.newContext();
        const page = await context.newPage();
        const url = authorizeUrl(metadata, {
          clientId: CIMD_ID,
          redirectUri: callback.redirectUri,
          resource,
          challenge,
        });
        const landed = await connectInBrowser(page, url, CIMD_NAME, false);
        await context.close();
        expect(server.cimdFetched).toContain(CIMD_ID);
        cimdTokens = await exchange(CIMD_ID, landed.searchParams.get('code') ?? '', verifier);
        const response = await callRider(server.origin, cimdTokens.access_token);
        expect(response.status).toBe(200);
        expect(((await response.json()) as { caller: { clientId: string } }).caller.clientId).toBe(CIMD_ID);
      });

      it('rotates the refresh token; the old one replays the same answer briefly, then revokes', async () => {
        const refresh = (token: string | undefined) =>
          postForm(metadata.token_endpoint, {
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: dcrClient,
            resource,
          });
        const rotated = await refresh(dcrTokens.refresh_token);
        expect(rotated.status, await rotated.clone().text()).toBe(200);
        const next = (await rotated.json()) as Tokens;
        expect(next.refresh_token).toBeTruthy();
        expect(next.refresh_token).not.toBe(dcrTokens.refresh_token);
        const stored = await sql<{ token: string }>`select token from "oauthRefreshToken"`.execute(
          db.store.db,
        );
        expect(stored.rows.length).toBeGreaterThan(0);
        expect(stored.rows.map((row) => row.token)).not.toContain(next.refresh_token);
        // Inside the reuse interval (parallel tool calls refreshing at once) the old token gets the same answer.
        const parallel = await refresh(dcrTokens.refresh_token);
        expect(parallel.status).toBe(200);
        expect(((await parallel.json()) as Tokens).refresh_token).toBe(next.refresh_token);
        // After it, replaying a rotated token revokes the family (RFC 9700 §4.14.2): get a fresh grant for what follows.
        vi.useFakeTimers({ toFake: ['Date'] });
        try {
          vi.setSystemTime(Date.now() + (REFRESH_REUSE_INTERVAL_S + 1) * 1000);
          const replay = await refresh(dcrTokens.refresh_token);
          expect(replay.status).toBe(400);
          expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
        } finally {
          vi.useRealTimers();
        }
        expect((await refresh(next.refresh_token)).status).toBe(400);
        const { verifier, challenge } = pkce();
        const page = await riderContext.newPage();
        await page.goto(
          authorizeUrl(metadata, {
            clientId: dcrClient,
            redirectUri: callback.redirectUri,
            resource,
            challenge,
          }),
        );
        await page.waitForURL((at) => at.href.startsWith(callback.redirectUri));
        const code = new URL(page.url()).searchParams.get('code');
        await page.close();
        dcrTokens = await exchange(dcrClient, code ?? '', verifier);
        expect((await callRider(server.origin, dcrTokens.access_token)).status).toBe(200);
      });

      it('lists both assistants in settings; Disconnect there refuses the next call with 401', async () => {
        const page = await riderContext.newPage();
        await page.goto(`${server.origin}/settings`);
        await expect.poll(() => page.locator('#account-email').textContent()).toBe(EMAIL);
        expect(await page.locator('#account-plan').textContent()).toMatch(/^Free, with the Pro trial until /);
        expect(await page.locator('#mcp-url').textContent()).toBe(resource);
        expect(await page.locator('.connection strong').allTextContents()).toEqual(
          expect.arrayContaining([DCR_NAME, CIMD_NAME]),
        );
        const disconnectPath = `/api/rider/connections/${encodeURIComponent(dcrClient)}/disconnect`;
        const answered = page.waitForResponse((reply) => new URL(reply.url()).pathname === disconnectPath);
        await page.getByRole('button', { name: `Disconnect ${DCR_NAME}` }).click();
        expect((await answered).status()).toBe(200);
        await expect.poll(() => page.locator('.connection strong').allTextContents()).toEqual([CIMD_NAME]);
        await page.close();

        const refused = await callRider(server.origin, dcrTokens.access_token);
        expect(refused.status).toBe(401);
        expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
        const refresh = await postForm(metadata.token_endpoint, {
          grant_type: 'refresh_token',
          refresh_token: dcrTokens.refresh_token,
          client_id: dcrClient,
          resource,
        });
        expect(refresh.status).toBe(400);
        expect((await callRider(server.origin, cimdTokens.access_token)).status).toBe(200);
      });
    },
  );
}
