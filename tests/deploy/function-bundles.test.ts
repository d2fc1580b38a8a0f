/**
 * The bundled Vercel functions (`scripts/vercel/bundle-functions.ts`), run
 * as the deployment runs them: a fresh Node process imports the bundled
 * MCP function and answers one public call (or the REST function one GET),
 * recording which of the bundle's files it loads. Each file maps back to the source modules
 * esbuild put in it, so this checks what a cold start compiles.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bundleFunctions,
  GAZETTEER_LINES,
  PACKED_CATALOG,
  type BundledFunction,
} from '../../scripts/vercel/bundle-functions.ts';
import { openSegmentCatalog } from '../../src/data/segments/open-catalog.ts';

const MARK = '@@loaded@@';
const ZONE_TABLE = 'zones.generated.tsv';

/** The probes' common part: imports the bundled entry (argv) and sends it one public MCP call, answered in `response`. */
const PUBLIC_CALL = `
const [entry, body] = process.argv.slice(1);
const { default: fn } = await import(entry);
const response = await fn.fetch(new Request('http://localhost/mcp', {
  method: 'POST',
  headers: { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body,
}));
`;

const PROBE = `
import { registerHooks } from 'node:module';
let compiled = 0;
globalThis.Function = new Proxy(Function, {
  construct(target, args) {
    if (String(args.at(-1) ?? '').trim() !== '') compiled += 1;
    return Reflect.construct(target, args);
  },
});
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
${PUBLIC_CALL}process.stdout.write('\\n${MARK}' + JSON.stringify({ status: response.status, body: await response.text(), loaded: [...loaded], compiled }));
`;

/** Answers one public call by coordinates, counting the `Intl.DateTimeFormat`s the process makes. */
const INTL_PROBE = `
let made = 0;
Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
  construct(target, args) { made++; return new target(...args); },
  apply(target, self, args) { made++; return target(...args); },
});
${PUBLIC_CALL}process.stdout.write('\\n${MARK}' + JSON.stringify({ status: response.status, body: await response.text(), made }));
`;

let outDir: string;
let mcp: BundledFunction;
let bundled: BundledFunction[];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'wos-bundles-'));
  bundled = await bundleFunctions(outDir);
  const found = bundled.find((fn) => fn.name === 'mcp');
  if (!found) throw new Error('no MCP bundle');
  mcp = found;
}, 120_000);

/**
 * The source modules a fresh process compiled to answer one `find_tailwind_segments` call, and how
 * many functions it built from source text at run time (`new Function` with a body).
 */
function sourcesLoaded(args: Record<string, unknown>): {
  status: number;
  body: string;
  files: string[];
  sources: string[];
  compiled: number;
} {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'find_tailwind_segments', arguments: args },
  });
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', PROBE, pathToFileURL(mcp.file).href, body],
    {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', WOS_FORECAST: 'demo' },
    },
  );
  const result = JSON.parse(out.slice(out.lastIndexOf(MARK) + MARK.length)) as {
    status: number;
    body: string;
    loaded: string[];
    compiled: number;
  };
  const files = result.loaded.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
  for (const file of files) expect(mcp.files.has(file), `${file} is one of the function's files`).toBe(true);
  return { ...result, files, sources: files.flatMap((file) => mcp.files.get(file) ?? []) };
}

describe('the bundled MCP function', () => {
  it('answers a public call by coordinates compiling neither the rider side nor the geocoders', () => {
    const { status, body, sources } = sourcesLoaded({ latitude: 45.06, longitude: 6.03 });
    expect(status).toBe(200);
    expect(body).toContain('segment');
    expect(
      sources.filter((path) =>
        /node_modules\/(better-auth|@better-auth|kysely|pg|stripe|ioredis)\//.test(path),
      ),
    ).toEqual([]);
    // The tools' rider checks bring a few store queries and the auth policy, but no driver or sign-in code.
    expect(
      sources.filter((path) => /src\/store\/(database|migrate)\.ts|src\/auth\/(?!policy\.ts)/.test(path)),
    ).toEqual([]);
    expect(
      sources.filter((path) => /src\/data\/geocoding\/(gazetteer|regions|region-index)\.ts$/.test(path)),
    ).toEqual([]);
    // The MCP entry holds no REST handler: its schemas and the OpenAPI document are not evaluated.
    expect(sources.filter((path) => /src\/rest\/(handler|openapi|endpoints)\.ts$/.test(path))).toEqual([]);
    // The catalog comes from the packed index beside the bundle, not from validating the GeoJSON.
    expect(sources).toContain('src/data/segments/packed-catalog.ts');
    expect(sources).not.toContain('src/data/segments/load.ts');
    // What it loaded is a part of what the function carries.
    expect(new Set(sources).size).toBeLessThan(mcp.inputs / 2);
  }, 60_000);

  it('loads a public call by coordinates from four files (scripts/vercel/join-chunks.ts)', () => {
    const { status, files } = sourcesLoaded({ latitude: 45.06, longitude: 6.03 });
    expect(status).toBe(200);
    // The entry, what it imports (with the bundler's helpers beside it) and what the first request loads.
    expect(files).toHaveLength(4);
    expect(files).toContain(mcp.file);
  }, 60_000);

  it("compiles none of zod's object parsers on a cold call (zod's jitless mode, api/_entries/mcp.ts)", () => {
    const { status, compiled } = sourcesLoaded({ latitude: 45.06, longitude: 6.03 });
    expect(status).toBe(200);
    expect(compiled).toBe(0);
  }, 60_000);

  it("defers Ajv's modules to the first JSON Schema it validates (scripts/vercel/lazy-ajv.ts)", () => {
    const withProvider = [...mcp.files].filter(([, sources]) =>
      sources.some((path) => /@modelcontextprotocol\/server\/dist\/ajvProvider-/.test(path)),
    );
    expect(withProvider).toHaveLength(1);
    const [[file = ''] = []] = withProvider;
    expect(readFileSync(file, 'utf8')).toContain('get Ajv2020()');
  });

  it("carries zod's English messages only", () => {
    const sources = [...mcp.files.values()].flat();
    expect(sources).toContain('node_modules/zod/v4/locales/en.js');
    expect(sources.filter((path) => /zod\/v4\/locales\/(?!en\.js|index\.js)/.test(path))).toEqual([]);
  });

  it('answers by place name, loading the gazetteer on demand', () => {
    const { status, body, sources } = sourcesLoaded({ place: "Bourg-d'Oisans" });
    expect(status).toBe(200);
    expect(body).toContain('Bourg');
    expect(sources).toContain('src/data/geocoding/gazetteer.ts');
    // Its line offsets, written by the bundle step, sit beside it, so no cold start scans its 11 MB for them.
    expect(existsSync(join(outDir, GAZETTEER_LINES))).toBe(true);
  }, 60_000);

  it('reads the clocks of its first answer from the zone table beside it, in the same bytes as Intl', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'find_tailwind_segments', arguments: { latitude: 45.06, longitude: 6.03 } },
    });
    const answer = () => {
      const out = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', INTL_PROBE, pathToFileURL(mcp.file).href, body],
        {
          encoding: 'utf8',
          env: { PATH: process.env['PATH'] ?? '', WOS_FORECAST: 'demo' },
        },
      );
      return JSON.parse(out.slice(out.lastIndexOf(MARK) + MARK.length)) as {
        status: number;
        body: string;
        made: number;
      };
    };
    const table = join(outDir, ZONE_TABLE);
    expect(existsSync(table)).toBe(true);
    // The demo forecast follows the clock: both answers are asked within one hour, or asked again.
    for (let attempt = 0; ; attempt++) {
      const hour = Math.floor(Date.now() / 3_600_000);
      const withTable = answer();
      renameSync(table, `${table}.away`);
      let withoutTable: ReturnType<typeof answer>;
      try {
        withoutTable = answer();
      } finally {
        renameSync(`${table}.away`, table);
      }
      if (Math.floor(Date.now() / 3_600_000) !== hour && attempt === 0) continue;
      expect(withTable.status).toBe(200);
      expect(withTable.body).toMatch(
        /best \w{3} \d{1,2} \w{3,4} \d\d:\d\d–(\w{3} \d{1,2} \w{3,4} )?\d\d:\d\d CES?T/,
      );
      expect(withTable.made).toBe(0);
      expect(withoutTable.made).toBeGreaterThan(0);
      expect(withTable.body).toBe(withoutTable.body);
      break;
    }
  }, 60_000);

  it('carries the embedded catalog packed, with the same segments as the GeoJSON', async () => {
    const packedFile = join(outDir, PACKED_CATALOG);
    expect(existsSync(packedFile)).toBe(true);
    const [packed, geojson] = await Promise.all([
      openSegmentCatalog(packedFile),
      openSegmentCatalog(undefined),
    ]);
    expect(packed.size).toBe(geojson.size);
    const every = (catalog: typeof packed) =>
      catalog
        .nearest({ lat: 45.06, lon: 6.03 }, catalog.size)
        .map(({ segment }) => [segment.id, segment.name]);
    expect(every(packed)).toEqual(every(geojson));
  });
});

/** The bundle's source modules a fresh process loads to answer one GET through the REST function. */
function restSourcesLoaded(target: string): { status: number; sources: string[] } {
  const rest = bundled.find((fn) => fn.name === 'rest');
  if (!rest) throw new Error('no REST bundle');
  const probe = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });
const { default: fn } = await import(process.argv[1]);
const response = await fn.fetch(new Request('http://localhost' + process.argv[2]));
await response.text();
process.stdout.write('\\n${MARK}' + JSON.stringify({ status: response.status, loaded: [...loaded] }));
`;
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', probe, pathToFileURL(rest.file).href, target],
    { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } },
  );
  const result = JSON.parse(out.slice(out.lastIndexOf(MARK) + MARK.length)) as {
    status: number;
    loaded: string[];
  };
  const files = result.loaded.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
  return { status: result.status, sources: files.flatMap((file) => rest.files.get(file) ?? []) };
}

/** zod, a schema, the endpoints' definitions or the settings' schema (decision 0045). */
const SCHEMA_CODE =
  /node_modules\/zod\/|src\/rest\/(schemas\/|endpoints\.ts|openapi\.ts)|src\/app\/settings(\.ts|\/setting-schema\.ts)/;

describe('the bundled REST function', () => {
  it('answers a valid /v1/tailwind without loading zod, a schema or the settings’ schema', () => {
    const { status, sources } = restSourcesLoaded(
      '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80',
    );
    expect(status).toBe(200);
    expect(sources).toContain('src/rest/routes.ts');
    expect(sources.filter((path) => SCHEMA_CODE.test(path))).toEqual([]);
  }, 60_000);

  it('loads the definitions, and zod with them, for a problem', () => {
    const { status, sources } = restSourcesLoaded('/v1/tailwind?wind_speed_kmh=fast');
    expect(status).toBe(400);
    expect(sources).toContain('src/rest/endpoints.ts');
    expect(sources.filter((path) => path.startsWith('node_modules/zod/')).length).toBeGreaterThan(0);
  }, 60_000);
});
