import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_MONTHLY_CALLS } from '../../../src/core/rider-rules.ts';
import { registerClient, metadataOf, tokensFor } from '../../auth/support/grants.ts';
import { Agent, type Tokens } from '../../auth/support/oauth.ts';
import { launchBrowser } from '../../support/browser/launch.ts';
import { ERAS, type Era } from '../../support/mcp-client.ts';
import { startService, type RunningService } from '../../support/service.ts';

// Issue #5, "done when": a rider connects an assistant to /mcp/rider of `npm start`, signs in, uses all
// eight tools, hits the free quota, and disconnects from the settings page; then the assistant gets 401.

const rider = { email: 'free.rider@example.org', password: 'correct horse battery' };
const REDIRECT = 'http://127.0.0.1:9/callback';
const database = join(mkdtempSync(join(tmpdir(), 'wos-rider-e2e-')), 'store.sqlite');
let service: RunningService;
let browser: Browser;
let tokens: Tokens;
let clientId: string;

function riderClient(era: Era, accessToken: string): Promise<Client> {
  const client = new Client(
    { name: 'e2e-assistant', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2025' ? 'legacy' : { pin: era } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp/rider`), {
    requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
  return client.connect(transport).then(() => client);
}

beforeAll(async () => {
  // A burst above the quota, so the per-connection limit does not end the quota test first.
  const env = { WOS_DATABASE_PATH: database, WOS_ALERTS_INTERVAL_MS: '0', WOS_MCP_RATE_BURST: '100' };
  // An operator creates the account from the command line, on Free without the trial.
  const created = spawnSync(
    'npm',
    [
      'run',
      '--silent',
      'rider',
      '--',
      'create',
      '--email',
      rider.email,
      '--password',
      rider.password,
      '--no-trial',
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  expect(created.status, created.stderr).toBe(0);
  [service, browser] = await Promise.all([startService(env), launchBrowser()]);
  const metadata = await metadataOf(service.baseUrl);
  clientId = await registerClient(metadata, REDIRECT, 'E2E assistant');
  const agent = new Agent(service.baseUrl);
  tokens = await tokensFor(agent, metadata, rider, {
    clientId,
    redirectUri: REDIRECT,
    scope: 'rider:read rider:write offline_access',
  });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

describe('the rider address of npm start', () => {
  it('refuses a call without a token with the OAuth challenge', async () => {
    const response = await fetch(`${service.baseUrl}/mcp/rider`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      '/.well-known/oauth-protected-resource/mcp/rider',
    );
  });

  it('gives a read-only grant 403 insufficient_scope for a tool that writes, and reads for it', async () => {
    const metadata = await metadataOf(service.baseUrl);
    const readerId = await registerClient(metadata, REDIRECT, 'Read-only assistant');
    const reader = await tokensFor(new Agent(service.baseUrl), metadata, rider, {
      clientId: readerId,
      redirectUri: REDIRECT,
      scope: 'rider:read',
    });
    const call = (name: string, args: Record<string, unknown>) =>
      fetch(`${service.baseUrl}/mcp/rider`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${reader.access_token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
    const write = await call('watch_segment', { segment_id: 'fr-alpe-d-huez' });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect(write.headers.get('www-authenticate')).toMatch(/rider:write/);
    const read = await call('get_segment', { segment_id: 'fr-alpe-d-huez' });
    expect(read.status).toBe(200);
  });

  it.each(ERAS)('serves all ten tools to the signed-in rider (protocol %s)', async (era) => {
    const client = await riderClient(era, tokens.access_token);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      'add_my_segment',
      'find_tailwind_segments',
      'get_my_tailwind_windows',
      'get_my_watchlist',
      'get_route_wind',
      'get_segment',
      'remove_my_segment',
      'set_alert_threshold',
      'unwatch_segment',
      'watch_segment',
    ]);
    await client.close();
  });

  it('watches, reads, sets a threshold and unwatches, then runs into the free quota', async () => {
    const client = await riderClient('2026-07-28', tokens.access_token);
    const call = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args });
    const found = await call('find_tailwind_segments', { place: "Bourg-d'Oisans", limit: 2 });
    const ids = (found.structuredContent as { segments: { id: string }[] }).segments.map((s) => s.id);
    expect(ids).toHaveLength(2);
    expect((await call('get_segment', { segment_id: ids[0] })).isError).toBeFalsy();
    expect((await call('watch_segment', { segment_id: ids[0], record_s: 3600 })).isError).toBeFalsy();
    expect((await call('watch_segment', { segment_id: ids[1] })).isError).toBeFalsy();
    expect(
      (await call('set_alert_threshold', { segment_id: ids[1], threshold_kmh: 20 })).isError,
    ).toBeFalsy();
    expect((await call('unwatch_segment', { segment_id: ids[1] })).isError).toBeFalsy();

    const usage = [];
    for (let i = 0; i < FREE_MONTHLY_CALLS; i++) {
      const name = i % 2 === 0 ? 'get_my_watchlist' : 'get_my_tailwind_windows';
      const answer = await call(name);
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
      usage.push((answer.structuredContent as { usage: { remaining: number } }).usage.remaining);
    }
    expect(usage.at(0)).toBe(FREE_MONTHLY_CALLS - 1);
    expect(usage.at(-1)).toBe(0);
    const past = (await call('get_my_watchlist')).structuredContent as Record<string, unknown>;
    expect(Object.keys(past).sort()).toEqual(['locked', 'usage']);
    await client.close();
  });

  it('disconnects the assistant from the settings page; its next call gets 401', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.baseUrl}/login`);
    await page.getByLabel('Email').fill(rider.email);
    await page.getByLabel('Password').fill(rider.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(`${service.baseUrl}/settings`);
    await page.getByRole('button', { name: 'Disconnect E2E assistant' }).click();
    await page
      .getByText(/disconnected/i)
      .first()
      .waitFor();
    await page.close();

    const client = new Client(
      { name: 'e2e-assistant', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp/rider`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    });
    await expect(client.connect(transport)).rejects.toThrow(/401|Unauthorized/i);
  });
});
