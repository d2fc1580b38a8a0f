/**
 * What each Vercel function loads for its first request, read from a fresh
 * Node process that records every module it loads (`module.registerHooks`)
 * while the function's entry (`api/_entries/*.ts`) answers one real request.
 * A cold start pays for each module it loads, so a public MCP call must not
 * load better-auth or the store's drivers, and the REST and cron functions
 * nothing of the MCP server.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MARK = '@@loaded@@';

/** Registers the recording hook, imports the entry, answers one request, prints status and modules. */
const PROBE = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
const [entry, url, init] = process.argv.slice(1);
const { default: fn } = await import(entry);
const response = await fn.fetch(new Request(url, JSON.parse(init)));
const body = await response.text();
process.stdout.write('\\n${MARK}' + JSON.stringify({ status: response.status, body, loaded: [...loaded] }));
`;

interface Probe {
  readonly status: number;
  readonly body: string;
  /** Module URLs relative to the repository (`src/…`, `node_modules/…`). */
  readonly loaded: readonly string[];
}

function probe(entry: string, url: string, init: RequestInit, env: Record<string, string> = {}): Probe {
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', PROBE, join(ROOT, entry), url, JSON.stringify(init)],
    {
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        WOS_DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'wos-loading-')), 'store.sqlite'),
        ...env,
      },
    },
  );
  const result = JSON.parse(out.slice(out.lastIndexOf(MARK) + MARK.length)) as Probe;
  const root = new URL(ROOT, 'file://').href;
  return { ...result, loaded: result.loaded.map((u) => u.replace(root, '').replace(/^file:\/\//, '')) };
}

const matching = (loaded: readonly string[], pattern: RegExp) => loaded.filter((url) => pattern.test(url));

/** No loaded module matches any of `patterns`; each pattern is its own assertion, named when it fails. */
function expectNoneLoaded(loaded: readonly string[], patterns: readonly RegExp[]): void {
  for (const pattern of patterns) expect(matching(loaded, pattern), String(pattern)).toEqual([]);
}

const BETTER_AUTH = /node_modules\/(better-auth|@better-auth)\//;
const STORE_DRIVERS = /node_modules\/(pg|kysely)\/|src\/store\/(database|migrate)\.ts/;
const GEOCODERS = /src\/data\/geocoding\/(gazetteer|open-meteo-geocoder|regions|region-index)\.ts/;
const MCP = /node_modules\/@modelcontextprotocol\/|src\/mcp\//;

/** What no REST request may load, whatever its endpoint: the MCP server, better-auth and the store's drivers. */
const NEVER_IN_REST = [MCP, BETTER_AUTH, STORE_DRIVERS];

/**
 * What the REST data endpoints read: the forecast, the catalog, the place search, the use cases and
 * the routes that call them. Not the
 * outage classifier and the forecast's types (a few lines, no I/O): every function's source status
 * (`/health`, the start log) tells a failure with them.
 */
const DATA_CODE =
  /src\/data\/forecast\/(?!forecast-outage\.ts|types\.ts)|src\/data\/segments\/|src\/data\/geocoding\/(gazetteer|select-geocoder)\.ts|src\/service\/|src\/rest\/data-routes\//;

/** What a segment's elevation profile reads: its wiring, the sampling and the elevation sources. */
const PROFILE_CODE =
  /src\/app\/segment-profiles\.ts|src\/core\/profile-samples\.ts|src\/data\/discovery\/(hgt|open-meteo)-elevation\.ts/;

function findCall(args: Record<string, unknown>): RequestInit {
  return {
    method: 'POST',
    headers: {
      host: 'localhost',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'find_tailwind_segments', arguments: args },
    }),
  };
}

describe('what a cold function loads for its first request', () => {
  it('a public find_tailwind_segments call loads the MCP server but not better-auth or the store', () => {
    const result = probe(
      'api/_entries/mcp.ts',
      'http://localhost/mcp',
      findCall({ latitude: 45.06, longitude: 6.03 }),
    );
    expect(result.status).toBe(200);
    expect(result.body).toContain('segment');
    expect(matching(result.loaded, MCP).length).toBeGreaterThan(0);
    expect(matching(result.loaded, BETTER_AUTH)).toEqual([]);
    expect(matching(result.loaded, STORE_DRIVERS)).toEqual([]);
    expect(matching(result.loaded, /src\/auth\/(?!policy\.ts)/)).toEqual([]);
    // No place name, so neither geocoder nor the region lookup is loaded (nor its 0.64 MB index read).
    expect(matching(result.loaded, GEOCODERS)).toEqual([]);
    // The MCP function's wiring (`src/app/mcp-function.ts`) reaches no REST handler, schemas or OpenAPI document.
    expect(matching(result.loaded, /src\/rest\/(handler|openapi|endpoints)\.ts$/)).toEqual([]);
  }, 60_000);

  it('a public call by place name loads the gazetteer and the region table it needs', () => {
    const result = probe(
      'api/_entries/mcp.ts',
      'http://localhost/mcp',
      findCall({ place: "Bourg-d'Oisans" }),
    );
    expect(result.status).toBe(200);
    expect(result.body).toContain('segment');
    expect(matching(result.loaded, /src\/data\/geocoding\/(gazetteer|regions)\.ts$/).length).toBe(2);
  }, 60_000);

  it('the sign-in metadata does load better-auth and the store (and, without STRIPE_*, not the Stripe library)', () => {
    const result = probe(
      'api/_entries/mcp.ts',
      'http://localhost/.well-known/oauth-authorization-server/api/auth',
      { headers: { host: 'localhost' } },
    );
    expect(result.status).toBe(200);
    expect(matching(result.loaded, BETTER_AUTH).length).toBeGreaterThan(0);
    expect(matching(result.loaded, STORE_DRIVERS).length).toBeGreaterThan(0);
    expect(matching(result.loaded, /node_modules\/stripe\//)).toEqual([]);
  }, 60_000);

  it('the REST function loads neither the MCP server, the store nor better-auth', () => {
    const result = probe(
      'api/_entries/rest.ts',
      'http://localhost/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80',
      {},
    );
    expect(result.status).toBe(200);
    expectNoneLoaded(result.loaded, NEVER_IN_REST);
    // The data endpoints' sources load with their first request, never with a calculation.
    expect(matching(result.loaded, DATA_CODE)).toEqual([]);
    expect(matching(result.loaded, PROFILE_CODE)).toEqual([]);
  }, 60_000);

  it('a REST data request loads the catalog, forecast and profile code, but no MCP code, store or better-auth', () => {
    const result = probe('api/_entries/rest.ts', 'http://localhost/v1/segments/fr-alpe-d-huez', {});
    expect(result.status).toBe(200);
    expect(result.body).toContain('fr-alpe-d-huez');
    expect(matching(result.loaded, DATA_CODE).length).toBeGreaterThan(0);
    // A segment's page reads its elevation profile: the profile code loads with it.
    expect(matching(result.loaded, PROFILE_CODE).length).toBeGreaterThan(0);
    // Built below both surfaces, as the list is (decisions 0028, 0035): nothing of get_segment either.
    expectNoneLoaded(result.loaded, NEVER_IN_REST);
    // Each data route loads its own use case (decision 0048): a segment by id, no place search.
    expect(
      matching(result.loaded, /src\/service\/(place|segments-near)\.ts$|data-routes\/segments-near/),
    ).toEqual([]);
  }, 60_000);

  it('a REST list near a place loads the place search and the catalog, but no MCP code at all', () => {
    const result = probe('api/_entries/rest.ts', "http://localhost/v1/segments?place=Bourg-d'Oisans", {});
    expect(result.status).toBe(200);
    expect(result.body).toContain('fr-alpe-d-huez');
    expect(matching(result.loaded, DATA_CODE).length).toBeGreaterThan(0);
    expect(matching(result.loaded, /src\/service\/(place|segments-around|segments-near)\.ts$/)).toHaveLength(
      3,
    );
    // Built below both surfaces (decision 0035): not the tool, its report code or its byte budget.
    expectNoneLoaded(result.loaded, NEVER_IN_REST);
  }, 60_000);

  it('the cron function loads the store but nothing of the MCP server', () => {
    const secret = 'function-loading-test-secret';
    const result = probe(
      'api/_entries/cron-alerts.ts',
      'http://localhost/api/cron-alerts',
      { headers: { authorization: `Bearer ${secret}` } },
      { CRON_SECRET: secret },
    );
    expect(result.status).toBe(200);
    expect(matching(result.loaded, STORE_DRIVERS).length).toBeGreaterThan(0);
    expect(matching(result.loaded, MCP)).toEqual([]);
    expect(matching(result.loaded, /src\/rest\/(handler|openapi|endpoints)\.ts$/)).toEqual([]);
  }, 60_000);
});
