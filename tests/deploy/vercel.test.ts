import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectedStatus,
  isApiTarget,
  requestArbitrary,
  type TableRequest,
} from '../contract/request-table.ts';
import { describeContract } from '../contract/run-contract.ts';
import { buildVercelOutput, standaloneFunction } from '../../scripts/vercel/build-output.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { connectClient, ERAS } from '../support/mcp-client.ts';
import { createVercelRouter, routeDestination } from '../support/vercel-output.ts';
import { pathFacts, PATHS, type PathRow } from '../../src/app/paths.ts';
import { SERVICE_VERSION } from '../../src/core/service-facts.ts';

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

/** Paths a row of the table names, in each spelling its match takes. */
function samplesOf({ path, match }: PathRow): string[] {
  if (match === 'exact') return [path];
  if (match === 'slash') return [path, `${path}/`];
  if (match === 'child') return [`${path}/some-id`, `${path}/some-id/`];
  return [...(match === 'tree' ? [path] : []), `${path}/`, `${path}/x/y`];
}

describe('vercel build output: the path table', () => {
  it('routes every path of the table to the function or page the table names', () => {
    for (const sample of PATHS.flatMap(samplesOf)) {
      const facts = pathFacts(sample);
      const expected =
        facts.function === 'rest' || facts.function === 'mcp' ? `/api/${facts.function}` : facts.page;
      const destination = routeDestination(output, sample);
      if (expected === undefined) expect(destination, sample).toBeUndefined();
      else expect(destination?.replace(/\?.*$/, ''), sample).toBe(expected);
    }
  });
});

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
    expect(await health.json()).toMatchObject({ status: 'ok', version: SERVICE_VERSION });
  });
});

describe("vercel build output: a segment's page and picture, from the REST function", () => {
  const get = (path: string, method = 'GET') => route(new Request(`${origin}${path}`, { method }));

  it("gives a known segment's page its name and picture in the head, and an unknown one the 404 page", async () => {
    const page = await get('/segments/fr-alpe-d-huez');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toMatch(/<title>Alpe d'Huez \(from Le Bourg-d'Oisans\): 13\.8 km at 8\.1%/);
    expect(html).toContain(`<meta property="og:image" content="${origin}/segments/fr-alpe-d-huez/card.png">`);
    for (const path of ['/segments/fr-col-de-nulle-part', '/segments/fr-alpe-d-huez/extra/parts']) {
      const missing = await get(path);
      expect(missing.status, path).toBe(404);
      expect(await missing.text(), path).toMatch(/not found/i);
    }
  });

  it('draws the picture, and answers HEAD without a body and POST as the API does', async () => {
    const card = await get('/segments/ad-col-d-ordino-from-canillo/card.png');
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(await card.arrayBuffer()));
    expect([png.width, png.height]).toEqual([1200, 630]);
    const head = await get('/segments/fr-alpe-d-huez', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('/segments/fr-alpe-d-huez', 'POST')).status).toBe(405);
  });

  it("answers the same through the Node form Vercel's runtime calls", async () => {
    const copy = standaloneFunction(output, 'api/rest');
    const module = (await import(copy?.entry ?? '')) as {
      default: { default: (request: IncomingMessage, response: ServerResponse) => void };
    };
    const server = createServer(module.default.default);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/segments/fr-alpe-d-huez`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/segments/fr-alpe-d-huez/card.png');
      const missing = await fetch(`${base}/segments/fr-col-de-nulle-part`);
      expect(missing.status).toBe(404);
      await missing.body?.cancel();
      const api = await fetch(
        `${base}/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=180&segment_bearing_deg=0`,
      );
      expect(api.status).toBe(200);
      await api.body?.cancel();
    } finally {
      server.close();
    }
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
    // `/mcp/` is the public address too (issue 28): the rewrite and the function both take it.
    for (const address of ['/mcp', '/mcp/']) {
      const client = await connectClient(`${origin}${address}`, era, fetchVia);
      const result = await client.callTool({
        name: 'find_tailwind_segments',
        arguments: { place: "Bourg-d'Oisans" },
      });
      const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
      expect(data.place.resolved_by, address).toBe('gazetteer');
      expect(data.segments.length, address).toBeGreaterThanOrEqual(5);
      await client.close();
    }
  });
});

describe('vercel build output: trailing slashes and unknown MCP paths (issue 28)', () => {
  const post = (path: string) =>
    route(
      new Request(`${origin}${path}`, {
        method: 'POST',
        headers: {
          host: new URL(origin).host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      }),
    );

  it('challenges at /mcp/rider/ with the canonical metadata, and serves /health/ and /openapi.json/', async () => {
    const rider = await post('/mcp/rider/');
    expect(rider.status).toBe(401);
    expect(rider.headers.get('www-authenticate')).toContain(
      '/.well-known/oauth-protected-resource/mcp/rider"',
    );
    expect(await (await route(new Request(`${origin}/health/`))).json()).toMatchObject({ status: 'ok' });
    expect((await route(new Request(`${origin}/openapi.json/`))).status).toBe(200);
  });

  it('answers an MCP path that is no address with a 404 problem carrying CORS and Cache-Control', async () => {
    const other = await route(new Request(`${origin}/v1/nope`));
    const response = await post('/mcp/unknown');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe(other.headers.get('cache-control'));
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

describe('vercel build output: the listener fuzz table, where a fetch request can carry it (issue 11)', () => {
  // What only the Node listener sees (parser refusals, Host and target forms, CONNECT, lowercase
  // methods, which fetch normalises) is Vercel's edge's to answer; bodies and methods reach the functions.
  const reachable = (request: TableRequest) =>
    (request.fault === 'none' ||
      (request.fault === 'unknown-method' && /^[A-Z0-9]+$/.test(request.method))) &&
    request.method !== 'TRACE' &&
    (isApiTarget(request.path) || /^\/(mcp|api|\.well-known)\b/.test(request.path)) &&
    (request.body?.size ?? 0) < 65_536;

  it('answers every request by the contract: no 5xx, Cache-Control, problems with CORS on API paths', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary(443).filter(reachable), async (request) => {
        const headers = new Headers(
          request.extra.filter(([name]) => name !== 'Cookie') as [string, string][],
        );
        if (request.accept) headers.set('accept', request.accept);
        const init: RequestInit = { method: request.method, headers };
        if (request.body) init.body = 'b'.repeat(request.body.size);
        const target = request.target.startsWith('/')
          ? request.target
          : new URL(request.target).pathname + new URL(request.target).search;
        const response = await route(new Request(origin + target, init));
        const body = await response.text();
        const where = `${request.method} ${target}`;
        expect(response.status, where).toBeLessThan(500);
        expect(response.headers.get('cache-control'), where).not.toBeNull();
        const expected = expectedStatus(request);
        // The promised statuses of the REST paths; the MCP side answers unknown methods by its own rules here.
        if (typeof expected === 'number' && isApiTarget(request.path))
          expect(response.status, where).toBe(expected);
        if (isApiTarget(request.path) && response.status >= 400) {
          expect(response.headers.get('content-type'), where).toMatch(/^application\/problem\+json/);
          expect(response.headers.get('access-control-allow-origin'), where).toBe('*');
          if (request.method !== 'HEAD')
            expect(JSON.parse(body), where).toMatchObject({ status: response.status });
        }
        checked += 1;
      }),
      { numRuns: 300 },
    );
    expect(checked).toBe(300);
  }, 120_000);
});
