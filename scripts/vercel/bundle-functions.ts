/**
 * Bundles each Vercel function into a tree-shaken ES module and the chunks
 * it loads on demand, so a cold start reads and compiles a few files
 * instead of resolving thousands, and only the code its first request
 * reaches: each `import()` the composition root defers becomes a chunk.
 *
 * `vercel.json`'s build command runs this after `npm run build`. `vercel
 * build` runs the framework build before it builds `api/`, so when
 * `@vercel/node` traces `api/rest.js` it finds a two-line re-export of
 * `api/_bundle/rest.js` and the chunks that imports, and nothing else to
 * follow. The wiring itself lives in `api/_entries/` (files under `_`
 * folders are not functions on Vercel).
 *
 * esbuild splits; `join-chunks.ts` then joins its many small chunks into the
 * few files a cold start loads: what the entry imports statically, and what
 * a function's first request loads (`FIRST_REQUEST_MODULES`).
 *
 * Only what cannot be bundled stays outside: the data files the code opens
 * with `new URL('./file', import.meta.url)` are copied next to the bundles
 * (each name is unique, and every bundled module's `import.meta.url` is its
 * chunk's, which sits beside them), where Vercel's tracing finds them for
 * the chunks that refer to them; `pg-native`, the optional native driver `pg` tries and does
 * without, stays external and absent.
 *
 * Build-time work moves to build time: the OpenAPI document is generated
 * here from the route table, and the bundles get it as a JSON constant in
 * place of `src/rest/openapi.ts`, so no function ships zod-openapi; the
 * synchronous endpoints' query plans are read off their schemas here too
 * (`prebuilt-sync-queries.ts`), so the REST function starts without zod.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { gazetteerLineStarts } from '../../src/data/geocoding/gazetteer-format.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { writePackedCatalog } from '../../src/data/segments/pack.ts';
import { openApiDocument } from '../../src/rest/openapi.ts';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { joinChunks, startAndFirstRequest, type ChunkGroup } from './join-chunks.ts';
import { lazyAjv } from './lazy-ajv.ts';
import { lruCacheLists } from './lru-cache-lists.ts';
import { prebuiltSchemaTableModule } from './prebuilt-schemas.ts';
import { prebuiltSyncQueriesModule } from './prebuilt-sync-queries.ts';
import { slimRateLimiter } from './slim-rate-limiter.ts';
import { TZ_LOOKUP_DATA, tzLookupData, tzLookupParts } from './tz-lookup-data.ts';
import { zodCoreMembers, zodNamespace } from './zod-namespace.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The wiring of each function (`api/_entries/<name>.ts`). */
export const ENTRIES_DIR = join(ROOT, 'api/_entries');
/** Where the bundles go; ignored by git, the type check and the linters. */
export const BUNDLE_DIR = join(ROOT, 'api/_bundle');

const EMBEDDED_CATALOG = 'src/data/segments/catalog.geojson';
const GAZETTEER = 'src/data/geocoding/gazetteer.generated.tsv';
/** The gazetteer's line offsets, beside the bundles, under the name `GAZETTEER_LINES_PATH` opens. */
export const GAZETTEER_LINES = 'gazetteer.generated.lines';

/** Files the code reads at run time through `new URL('./<name>', import.meta.url)`. */
export const DATA_FILES: readonly string[] = [
  EMBEDDED_CATALOG,
  'src/data/segments/discovered.generated.geojson',
  GAZETTEER,
  'src/data/geocoding/regions.generated.tsv',
  // The zone table the clocks read instead of `Intl` (src/data/time-zone/zone-table-file.ts).
  'src/data/time-zone/zones.generated.tsv',
  // The SRTM tiles elevation profiles read in the default (seed) mode, 2.5 MB zipped, opened by
  // `src/app/segment-profiles.ts` with the first segment asked for; the gazetteer beside them is 11 MB.
  'seed/dem/N42E001.hgt.zip',
  'seed/dem/N43E007.hgt.zip',
];

/** The site's built pages the REST function serves a segment's page from, and the names it reads them by. */
const BUILT_PAGES: readonly (readonly [string, string])[] = [
  ['dist/segments/segment_page/index.html', 'segment-shell.html'],
  ['dist/404.html', 'not-found.html'],
];

/**
 * The packed index of the embedded catalog, beside the bundles; the name
 * `src/app/app.ts` (its catalog part) opens through `new URL('./catalog.segidx', import.meta.url)`.
 */
export const PACKED_CATALOG = 'catalog.segidx';

/** Optional native add-ons the bundled packages probe for and run without. */
const EXTERNAL: readonly string[] = ['pg-native'];

/**
 * CommonJS packages inside an ES module bundle still call `require` for
 * Node's built-in modules; this gives them one. esbuild puts it at the top of
 * every chunk; marked pure, it is dropped by the joining step
 * (`join-chunks.ts`) wherever nothing calls it, instead of running once per
 * chunk a cold start loads.
 */
const REQUIRE_SHIM = [
  "import { createRequire as __wosCreateRequire } from 'node:module';",
  'const require = /* @__PURE__ */ __wosCreateRequire(import.meta.url);',
].join('\n');

/** Stand-ins for the two deployment URLs the document names, replaced per request's URLs. */
const BASE_MARK = 'https://openapi-base.invalid';
const DOCS_MARK = 'https://openapi-docs.invalid/docs';

/**
 * The source of a module that exports `openApiDocument` as `src/rest/openapi.ts`
 * does, over a document generated now: only the server URL and the API
 * guide's URL differ between deployments, and they are filled in per call.
 * (`tests/unit/openapi-prebuilt.test.ts` checks it answers as the original.)
 */
export function prebuiltOpenApiModule(): string {
  const document = openApiDocument(ENDPOINTS, {
    base: BASE_MARK,
    docs: DOCS_MARK,
    mcp: 'https://openapi-mcp.invalid/mcp',
    mcpDocs: 'https://openapi-mcp.invalid/docs/mcp',
    pricing: 'https://openapi-mcp.invalid/pricing',
  });
  const [server, ...others] = document.servers ?? [];
  if (server?.url !== BASE_MARK || others.length > 0 || document.externalDocs?.url !== DOCS_MARK) {
    throw new Error('The OpenAPI document no longer names its URLs as the prebuilt module expects.');
  }
  return [
    '/** Generated at build time by scripts/vercel/bundle-functions.ts from src/rest/openapi.ts. */',
    // Parsed on the first request for it, not as the function starts (decision 0045).
    `const text = ${JSON.stringify(JSON.stringify(document))};`,
    'let document;',
    'const cache = new Map();',
    'export function openApiDocument(_routes, urls) {',
    '  const key = `${urls.base} ${urls.docs}`;',
    '  let built = cache.get(key);',
    '  if (built === undefined) {',
    '    document ??= JSON.parse(text);',
    '    built = {',
    '      ...document,',
    '      servers: [{ ...document.servers[0], url: urls.base }],',
    '      externalDocs: { ...document.externalDocs, url: urls.docs },',
    '    };',
    '    cache.set(key, built);',
    '  }',
    '  return built;',
    '}',
    '',
  ].join('\n');
}

/**
 * An esbuild plugin that loads `contents()` in place of the project file `path` (relative to the
 * repository): how the bundles swap a module that works things out at run time for what was worked
 * out now. The contents are made once, on the first bundle that imports the file.
 */
function swapModule(name: string, path: string, contents: () => string): Plugin {
  const source = join(ROOT, path);
  const file = path.slice(path.lastIndexOf('/') + 1).replaceAll('.', '\\.');
  let made: string | undefined;
  return {
    name,
    setup(build) {
      build.onLoad({ filter: new RegExp(`[\\\\/]${file}$`) }, (args) =>
        args.path === source ? { contents: (made ??= contents()), loader: 'js' } : undefined,
      );
    },
  };
}

/** The OpenAPI document, prebuilt. */
const prebuiltOpenApi = () => swapModule('prebuilt-openapi', 'src/rest/openapi.ts', prebuiltOpenApiModule);

/** The tool schemas converted now (`prebuilt-schemas.ts`). */
const prebuiltToolSchemas = () =>
  swapModule('prebuilt-tool-schemas', 'src/mcp/prebuilt-schema-table.ts', prebuiltSchemaTableModule);

/** The bundles' answer check (`src/mcp/answer-check.ts`): the SDK does not validate tools' answers again. */
const answersUnchecked = () =>
  swapModule('answers-unchecked', 'src/mcp/answer-check.ts', () => 'export const ANSWERS_CHECKED = false;\n');

/**
 * The REST query table read off the query schemas now (`prebuilt-sync-queries.ts`): the REST
 * function's route table is then built without zod.
 */
const prebuiltSyncQueries = () =>
  swapModule('prebuilt-sync-queries', 'src/rest/sync-queries.ts', prebuiltSyncQueriesModule);

/**
 * Keeps zod's English messages only. `z` reaches the code as one namespace
 * object, so esbuild keeps all it exports, `z.locales` with some fifty
 * message sets (0.27 MB, more than half of zod in a bundle) that only
 * `z.config(z.locales.xx())` would use; nothing here calls it, and zod
 * itself configures English through its own import of `zod/v4/locales/en.js`.
 */
function englishZodOnly(): Plugin {
  return {
    name: 'english-zod-only',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
        contents: "export { default as en } from './en.js';\n",
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
    },
  };
}

export interface BundledFunction {
  readonly name: string;
  /** The entry module, `api/_bundle/<name>.js`. */
  readonly file: string;
  /** The entry and every chunk it may load (what the deployment's file tracing finds). */
  readonly bytes: number;
  /** The entry and the chunks it imports statically: what every cold start compiles. */
  readonly eagerBytes: number;
  /** Chunks beside the entry (`<name>-<hash>.js`) it may load. */
  readonly chunks: number;
  /** Source modules esbuild put in, for a quick look at what a function carries. */
  readonly inputs: number;
  /** Each file the function may load (absolute path) with the source modules in it (relative to the repository). */
  readonly files: ReadonlyMap<string, readonly string[]>;
  /** Bytes each source module (relative to the repository) adds to esbuild's output, minified. */
  readonly sourceBytes: ReadonlyMap<string, number>;
}

/**
 * Per function, the modules a first request loads past the entry: their chunks and every chunk those
 * import statically become one file (`join-chunks.ts`, decision 0034). For the MCP function, what a
 * public `find_tailwind_segments` call loads: `publicMcp` in `src/app/parts.ts` and the parts it needs
 * (the guard's config, the tools' catalog, forecast, ensemble and geocoder choice, the rate limiter).
 */
const FIRST_REQUEST_MODULES: Readonly<Record<string, readonly string[]>> = {
  mcp: [
    'src/app/public-mcp.ts',
    'src/mcp/endpoint-guard.ts',
    'src/data/segments/open-catalog.ts',
    'src/data/segments/packed-catalog.ts',
    'src/data/forecast/select-forecast.ts',
    'src/data/forecast/select-ensemble.ts',
    'src/data/geocoding/select-geocoder.ts',
    'src/store/shared-state/rate-limiter.ts',
  ],
  // What one run of the alert job loads (decision 0045): the job, its parts in `src/app/parts.ts`
  // (`alertJob`: the migrated store, the served catalog, the forecast, the ensemble, mail and push)
  // and the job's cursor (`src/app/shared-state.ts`).
  'cron-alerts': [
    'src/alerts/run.ts',
    'src/app/notifications.ts',
    'src/app/migrations.ts',
    'src/data/segments/open-catalog.ts',
    'src/data/segments/packed-catalog.ts',
    'src/data/forecast/select-forecast.ts',
    'src/data/forecast/select-ensemble.ts',
    'src/alerts/cursor.ts',
  ],
};

/** Discovery on demand (`servedCatalog` in `src/app/parts.ts`): the live catalog and the runtime's `waitUntil`. */
const DISCOVERY_ON_DEMAND = ['src/app/discovery.ts', 'node_modules/@vercel/functions/index.js'];

/**
 * Per function, what some first requests load on top of `FIRST_REQUEST_MODULES`, each list joined
 * into one more file, in order (decision 0045). The MCP function's store (the rider side, and a public
 * call with discovery on demand, which reads the areas around its point), then discovery on demand
 * itself (a deployment's live default). A request that needs neither, a public call over the built-in
 * catalog, loads none of them; one that needs the store only (the sign-in paths over the built-in
 * catalog) does not load discovery. Not the cron function's discovery: joined, a run over the
 * built-in catalog loaded it too (a module the run imports on demand went with it), 10 % more
 * instructions.
 */
const LATER_MODULES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  mcp: [['src/app/migrations.ts'], DISCOVERY_ON_DEMAND],
};

/**
 * What to join in one function's esbuild output (`startAndFirstRequest`): the chunks the entry imports
 * statically, the chunks its first request loads (those holding `FIRST_REQUEST_MODULES`), and those
 * some first requests load on top (`LATER_MODULES`).
 */
function chunkGroups(name: string, metafile: Metafile, entryPath: string): ChunkGroup[] {
  const holders = (modules: readonly string[]) =>
    modules.map((module) => {
      const holder = Object.keys(metafile.outputs).find(
        (path) => (metafile.outputs[path]?.inputs[module]?.bytesInOutput ?? 0) > 0,
      );
      if (holder === undefined) throw new Error(`No chunk of api/${name} holds ${module} any more.`);
      return join(ROOT, holder);
    });
  const staticImports = (file: string) =>
    (metafile.outputs[relative(ROOT, file)]?.imports ?? [])
      .filter((imported) => !imported.external && imported.kind === 'import-statement')
      .map((imported) => join(ROOT, imported.path));
  return startAndFirstRequest(
    join(ROOT, entryPath),
    holders(FIRST_REQUEST_MODULES[name] ?? []),
    staticImports,
    (LATER_MODULES[name] ?? []).map(holders),
  );
}

/**
 * Bundles one entry module into `outDir` as `<name>.js` and the chunks it loads, joined as a cold start
 * loads them: what every function's build does, and what the cold-start bench's floor functions get
 * too (`bench/cold-start-floor.ts`), so the two are compared bundled the same way.
 */
export async function bundleEntry(entryFile: string, outDir: string): Promise<BundledFunction> {
  const name = basename(entryFile, '.ts');
  const file = join(outDir, `${name}.js`);
  const stage = mkdtempSync(join(tmpdir(), `wos-${name}-`));
  try {
    const result = await build({
      entryPoints: [entryFile],
      absWorkingDir: ROOT,
      outdir: stage,
      entryNames: '[name]',
      chunkNames: `${name}-[hash]`,
      splitting: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      minify: true,
      // Error messages and stack traces keep the names of functions and classes.
      keepNames: true,
      external: [...EXTERNAL],
      banner: { js: REQUIRE_SHIM },
      legalComments: 'eof',
      plugins: [
        prebuiltOpenApi(),
        prebuiltToolSchemas(),
        answersUnchecked(),
        prebuiltSyncQueries(),
        englishZodOnly(),
        lazyAjv(),
        slimRateLimiter(),
        zodCoreMembers(),
        tzLookupData(),
        lruCacheLists(),
        // Last: the swaps above load their own contents first.
        zodNamespace(),
      ],
      metafile: true,
      logLevel: 'warning',
    });
    const { metafile } = result;
    const entryPath = Object.keys(metafile.outputs).find((path) => basename(path) === `${name}.js`);
    if (entryPath === undefined) throw new Error(`esbuild wrote no ${name}.js.`);
    const joined = await joinChunks(
      name,
      join(ROOT, entryPath),
      outDir,
      chunkGroups(name, metafile, entryPath),
      EXTERNAL,
    );
    const sourcesOf = (staged: string) =>
      Object.entries(metafile.outputs[relative(ROOT, staged)]?.inputs ?? {})
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path);
    const files = new Map(joined.map((out) => [out.file, out.from.flatMap(sourcesOf)] as const));
    const importsOf = new Map(joined.map((out) => [out.file, out.imports] as const));
    const eager = new Set([file]);
    for (const path of eager) for (const imported of importsOf.get(path) ?? []) eager.add(imported);
    const sum = (paths: Iterable<string>) =>
      [...paths].reduce((total, path) => total + statSync(path).size, 0);
    const sourceBytes = new Map<string, number>();
    for (const output of Object.values(metafile.outputs))
      for (const [path, input] of Object.entries(output.inputs))
        sourceBytes.set(path, (sourceBytes.get(path) ?? 0) + input.bytesInOutput);
    return {
      name,
      file,
      sourceBytes,
      bytes: sum(files.keys()),
      eagerBytes: sum(eager),
      chunks: files.size - 1,
      inputs: new Set([...files.values()].flat()).size,
      files,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Bundles every `api/_entries/*.ts` into `api/_bundle/<name>.js` and copies the data files beside them. */
export async function bundleFunctions(outDir = BUNDLE_DIR): Promise<BundledFunction[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const entries = readdirSync(ENTRIES_DIR).filter((name) => name.endsWith('.ts'));
  const bundled: BundledFunction[] = [];
  // One build per function. Code splitting turns each `import()` the composition root defers into a
  // chunk of its own, so a cold start compiles only the code its first request reaches (a public MCP
  // call never parses better-auth, Kysely, pg or Stripe); then `joinChunks` puts together the chunks
  // a cold start always loads. Chunks sit beside the entry, named for their function, so
  // `new URL('./file', import.meta.url)` in any of them finds the data files.
  for (const entry of entries) bundled.push(await bundleEntry(join(ENTRIES_DIR, entry), outDir));
  for (const data of DATA_FILES) copyFileSync(join(ROOT, data), join(outDir, basename(data)));
  // The built pages a segment's page is made of in the REST function (src/app/segment-page-function.ts).
  for (const [page, name] of BUILT_PAGES) {
    if (!existsSync(join(ROOT, page))) throw new Error(`${page} is missing: run npm run build first.`);
    copyFileSync(join(ROOT, page), join(outDir, name));
  }
  // The embedded catalog (hand-traced and seed-discovered), validated now and packed where
  // `src/app/app.ts` looks for it.
  writePackedCatalog(join(outDir, PACKED_CATALOG), loadEmbeddedSegments());
  // Where each line of the gazetteer starts, read with the file on the first place name instead of
  // found in its 11 MB (`GAZETTEER_LINES_PATH` in src/data/geocoding/gazetteer.ts).
  const starts = gazetteerLineStarts(readFileSync(join(ROOT, GAZETTEER)));
  writeFileSync(
    join(outDir, GAZETTEER_LINES),
    new Uint8Array(starts.buffer, starts.byteOffset, starts.byteLength),
  );
  // The time-zone grid the bundled tz-lookup reads instead of scanning it as source (`tz-lookup-data.ts`).
  const tzLookup = readFileSync(join(ROOT, 'node_modules/@photostructure/tz-lookup/tz.js'), 'utf8');
  writeFileSync(join(outDir, TZ_LOOKUP_DATA), tzLookupParts(tzLookup).data, 'latin1');
  // Marks the folder as ES modules even where the project's package.json is not beside it.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  return bundled;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const { name, bytes, eagerBytes, chunks, inputs } of await bundleFunctions()) {
    const kb = (count: number) => `${(count / 1024).toFixed(0)} KB`;
    console.log(
      `api/${name}: ${kb(bytes)} in ${chunks + 1} files from ${inputs} modules, ${kb(eagerBytes)} loaded at import`,
    );
  }
}
