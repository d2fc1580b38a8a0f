import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeContract } from '../contract/run-contract.ts';
import { buildVercelOutput } from '../../scripts/vercel/build-output.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { connectClient, ERAS } from '../support/mcp-client.ts';
import { createVercelRouter } from '../support/vercel-output.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const origin = 'https://wind-on-segment.vercel.test';
let output: string;
let route: (request: Request) => Promise<Response>;

beforeAll(async () => {
  // Vercel tells each function its deployment's host name; the MCP function allows it as a Host.
  process.env['VERCEL_URL'] = new URL(origin).host;
  // The rider side needs a store; the built function gets a throwaway SQLite file here (PostgreSQL on Vercel).
  process.env['WOS_DATABASE_PATH'] = join(mkdtempSync(join(tmpdir(), 'wos-vercel-store-')), 'store.sqlite');
  output = buildVercelOutput(root);
  route = await createVercelRouter(output);
}, 300_000);

describeContract('vercel build output', () => ({
  origin,
  fetch: (path, init) => route(new Request(origin + path, init)),
}));

describe('vercel build output: layout', () => {
  it('has the REST function on Node 24 and the static site', () => {
    const fn = join(output, 'functions/api/rest.func');
    expect(statSync(fn).isDirectory()).toBe(true);
    expect(readdirSync(join(output, 'static'))).toContain('index.html');
  });

  it('sends the browser the site and the API its paths', async () => {
    const home = await route(new Request(`${origin}/`));
    expect(home.status).toBe(200);
    const health = await route(new Request(`${origin}/health`));
    expect(await health.json()).toEqual({ status: 'ok', version: '1.1.0' });
  });
});

describe.each(ERAS)('vercel build output: the MCP function, protocol %s', (era) => {
  it("has its data with it: finds segments near Bourg-d'Oisans by name", async () => {
    const fetchVia = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const headers = new Headers(request.headers);
      headers.set('host', new URL(origin).host);
      headers.set('x-real-ip', '198.51.100.7');
      return route(new Request(request, { headers }));
    };
    const client = await connectClient(`${origin}/mcp`, era, fetchVia);
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: "Bourg-d'Oisans" },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.place.resolved_by).toBe('gazetteer');
    expect(data.segments.length).toBeGreaterThanOrEqual(5);
    await client.close();
  });
});

describe('vercel build output: sign-in through the MCP function', () => {
  it('serves the protected-resource and authorization-server metadata, and challenges /mcp/rider', async () => {
    const prm = await route(new Request(`${origin}/.well-known/oauth-protected-resource/mcp/rider`));
    expect(prm.status).toBe(200);
    expect(await prm.json()).toMatchObject({ resource: `${origin}/mcp/rider` });
    const asm = await route(new Request(`${origin}/.well-known/oauth-authorization-server/api/auth`));
    expect(asm.status).toBe(200);
    expect(await asm.json()).toMatchObject({
      issuer: `${origin}/api/auth`,
      code_challenge_methods_supported: ['S256'],
    });
    const rider = await route(
      new Request(`${origin}/mcp/rider`, {
        method: 'POST',
        headers: {
          host: new URL(origin).host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      }),
    );
    expect(rider.status).toBe(401);
    expect(rider.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
  });
});
