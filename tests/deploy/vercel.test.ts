import { readdirSync, statSync } from 'node:fs';
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
