/**
 * JavaScript shipped per page of the built site. The product promise is that reading the docs,
 * pricing and changelog costs no script at all, and that the landing page's calculator stays
 * small; a stray `<script>` or island in a shared layout breaks that silently, so this measures
 * what each HTML file in dist/ makes a browser download and run.
 *
 * Counted for a page: every `<script src>`, `<link rel="modulepreload">` (and `rel="preload"
 * as="script"`), every Astro island's component/renderer/before-hydration URL, then every static
 * `import`/`export … from` of those files, transitively; plus inline `<script>` bodies and inline
 * `on*=""` event-handler attributes. Dynamic `import("…")` chunks are loaded later, so they are
 * reported apart ("lazy") and not budgeted. Gzip is measured per file (level 9) and summed,
 * because that is how a browser fetches them.
 *
 * HTML is read with htmlparser2 (attributes decoded, comments and non-JS script types skipped)
 * and JavaScript with es-module-lexer (the lexer Vite uses), so no hand-written grammar decides
 * what a page costs, and a budget check needs no browser.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { init as initLexer, parse as parseModule } from 'es-module-lexer';
import { Parser } from 'htmlparser2';

/** Placeholder origin used to resolve page-relative URLs; anything else is off-site. */
const SITE = 'http://site.invalid';

const JS_SCRIPT_TYPES = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'text/ecmascript',
  'application/ecmascript',
]);

/** Astro island attributes whose value is a module URL the island loads when it hydrates. */
const ISLAND_URL_ATTRIBUTES = ['component-url', 'renderer-url', 'before-hydration-url'] as const;

export interface InlineScript {
  /** `<script>` or `on…=` attribute. */
  readonly kind: 'script' | 'handler';
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface PageJs {
  /** The route the page is served at: `/`, `/docs`, `/404`. */
  readonly route: string;
  /** Path of the HTML file, relative to dist/. */
  readonly file: string;
  /** External JS files loaded up front, as dist-relative URL paths (`/_astro/…`). */
  readonly files: readonly string[];
  readonly inline: readonly InlineScript[];
  /** Raw and gzip bytes of `files` plus `inline`. */
  readonly bytes: number;
  readonly gzipBytes: number;
  /** Chunks reachable only through dynamic `import()`, not counted in the totals above. */
  readonly lazyFiles: readonly string[];
  readonly lazyGzipBytes: number;
  /** References that point off-site or at files missing from dist/ (not counted). */
  readonly unresolved: readonly string[];
}

export interface JsBudget {
  readonly route: string;
  readonly maxGzipBytes: number;
}

export type BudgetStatus = 'PASS' | 'OVER' | 'MISSING';

export interface JsBudgetResult {
  readonly budget: JsBudget;
  readonly page: PageJs | undefined;
  readonly status: BudgetStatus;
}

/**
 * The product's budgets: a small calculator on `/`, no JavaScript on the
 * reading pages. `/pricing` has its Buy buttons: a script asks the server
 * whether this deployment takes payments and starts the checkout (about
 * 1.8 KB gzip); the prices and plans stay plain HTML.
 */
export const JS_BUDGETS: readonly JsBudget[] = [
  { route: '/', maxGzipBytes: 15 * 1024 },
  { route: '/docs', maxGzipBytes: 0 },
  { route: '/pricing', maxGzipBytes: 3 * 1024 },
  { route: '/changelog', maxGzipBytes: 0 },
];

/** `index.html` → `/`, `docs/index.html` → `/docs`, `docs.html` → `/docs`, `404.html` → `/404`. */
export function routeOf(file: string): string {
  const path = file.split(sep).join('/');
  const route = path.replace(/(?:^|\/)index\.html$/, '').replace(/\.html$/, '');
  return `/${route}`;
}

interface HtmlScripts {
  readonly urls: string[];
  readonly inline: { kind: 'script' | 'handler'; code: string }[];
}

/** The script URLs and inline code of one HTML document. */
export function scriptsInHtml(html: string): HtmlScripts {
  const urls: string[] = [];
  const inline: HtmlScripts['inline'] = [];
  /** The body of the JS `<script>` being read, or undefined outside one. */
  let script: string | undefined;
  const parser = new Parser({
    onopentag(tag, attributes) {
      for (const [name, value] of Object.entries(attributes)) {
        if (/^on[a-z]+$/.test(name) && value.trim() !== '') inline.push({ kind: 'handler', code: value });
      }
      if (tag === 'script') {
        // JSON-LD, importmap, speculation rules… are not JavaScript.
        if (!JS_SCRIPT_TYPES.has((attributes['type'] ?? '').trim().toLowerCase())) return;
        if (attributes['src'] !== undefined) urls.push(attributes['src']);
        else script = '';
      } else if (tag === 'link') {
        const rel = (attributes['rel'] ?? '').toLowerCase().split(/\s+/);
        const isScript =
          rel.includes('modulepreload') || (rel.includes('preload') && attributes['as'] === 'script');
        if (attributes['href'] !== undefined && isScript) urls.push(attributes['href']);
      } else if (tag === 'astro-island') {
        for (const name of ISLAND_URL_ATTRIBUTES) if (attributes[name]) urls.push(attributes[name]);
      }
    },
    ontext(text) {
      if (script !== undefined) script += text;
    },
    onclosetag(tag) {
      if (tag === 'script' && script !== undefined && script.trim() !== '')
        inline.push({ kind: 'script', code: script });
      if (tag === 'script') script = undefined;
    },
  });
  parser.end(html);
  return { urls, inline };
}

/** Static (`import`, `export … from`) and literal dynamic `import("…")` specifiers that are paths. */
export function importsInJs(code: string): {
  readonly staticImports: string[];
  readonly dynamicImports: string[];
} {
  const isPath = (specifier: string | undefined): specifier is string =>
    specifier !== undefined && /^(?:\.{1,2}\/|\/|https?:\/\/)/.test(specifier);
  let imports: ReturnType<typeof parseModule>[0];
  try {
    [imports] = parseModule(code);
  } catch {
    return { staticImports: [], dynamicImports: [] }; // Not a module the lexer can read: nothing it imports.
  }
  const pick = (dynamic: boolean) =>
    imports
      .filter((entry) => entry.d > -1 === dynamic && entry.d !== -2)
      .map((entry) => entry.n)
      .filter(isPath);
  return { staticImports: pick(false), dynamicImports: pick(true) };
}

function sizeOf(content: string | Buffer): { bytes: number; gzipBytes: number } {
  return { bytes: Buffer.byteLength(content), gzipBytes: gzipSync(content, { level: 9 }).byteLength };
}

/** Reads built JS files once and follows their imports. */
class ModuleGraph {
  readonly #distDir: string;
  readonly #files = new Map<
    string,
    { bytes: number; gzipBytes: number; imports: string[]; dynamic: string[] }
  >();

  constructor(distDir: string) {
    this.#distDir = distDir;
  }

  /** `ref` resolved against `base` (a URL path): a dist URL path, or undefined when off-site. */
  resolve(ref: string, base: string): string | undefined {
    const url = new URL(ref, new URL(base, SITE));
    return url.origin === SITE ? decodeURIComponent(url.pathname) : undefined;
  }

  async load(path: string) {
    const cached = this.#files.get(path);
    if (cached !== undefined) return cached;
    const file = join(this.#distDir, ...path.split('/'));
    if (!existsSync(file)) return undefined;
    const content = await readFile(file);
    const { staticImports, dynamicImports } = importsInJs(content.toString('utf8'));
    const resolveAll = (refs: string[]) =>
      refs.map((ref) => this.resolve(ref, path) ?? ref).filter((ref, i, all) => all.indexOf(ref) === i);
    const entry = {
      ...sizeOf(content),
      imports: resolveAll(staticImports),
      dynamic: resolveAll(dynamicImports),
    };
    this.#files.set(path, entry);
    return entry;
  }

  /** Every file reachable from `roots` through static imports; dynamic targets met on the way. */
  async closure(roots: readonly string[], unresolved: Set<string>) {
    const seen = new Set<string>();
    const dynamic = new Set<string>();
    const queue = [...roots];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (seen.has(path)) continue;
      const entry = path.startsWith('/') ? await this.load(path) : undefined;
      if (entry === undefined) {
        unresolved.add(path);
        continue;
      }
      seen.add(path);
      queue.push(...entry.imports);
      for (const target of entry.dynamic) dynamic.add(target);
    }
    return { files: seen, dynamic };
  }

  size(path: string): { bytes: number; gzipBytes: number } {
    return this.#files.get(path) ?? { bytes: 0, gzipBytes: 0 };
  }
}

/** Every HTML page under `distDir` (outside `_astro/`), sorted by route. */
async function htmlFiles(distDir: string): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => relative(distDir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(sep).includes('_astro'))
    .sort((a, b) => routeOf(a).localeCompare(routeOf(b)));
}

/** Measures the JavaScript of every page of a built site. */
export async function measurePages(distDir: string): Promise<PageJs[]> {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(`No built site in ${distDir} (run astro build, or drop --no-build).`);
  }
  await initLexer;
  const graph = new ModuleGraph(distDir);
  const pages: PageJs[] = [];
  for (const file of await htmlFiles(distDir)) {
    const route = routeOf(file);
    const { urls, inline } = scriptsInHtml(await readFile(join(distDir, file), 'utf8'));
    const unresolved = new Set<string>();
    const roots = urls.map((url) => graph.resolve(url, route) ?? url);
    const eager = await graph.closure(roots, unresolved);
    const lazy = await graph.closure(
      [...eager.dynamic].filter((path) => !eager.files.has(path)),
      unresolved,
    );
    const lazyFiles = [...lazy.files].filter((path) => !eager.files.has(path));
    const inlineSizes = inline.map(({ kind, code }) => ({ kind, ...sizeOf(code) }));
    const parts = [...[...eager.files].map((path) => graph.size(path)), ...inlineSizes];
    pages.push({
      route,
      file,
      files: [...eager.files],
      inline: inlineSizes,
      bytes: parts.reduce((sum, part) => sum + part.bytes, 0),
      gzipBytes: parts.reduce((sum, part) => sum + part.gzipBytes, 0),
      lazyFiles,
      lazyGzipBytes: lazyFiles.reduce((sum, path) => sum + graph.size(path).gzipBytes, 0),
      unresolved: [...unresolved],
    });
  }
  return pages;
}

/** Each budget against its page; a page that does not exist yet is MISSING, not a failure. */
export function checkJsBudgets(
  pages: readonly PageJs[],
  budgets: readonly JsBudget[] = JS_BUDGETS,
): JsBudgetResult[] {
  return budgets.map((budget) => {
    const page = pages.find((candidate) => candidate.route === budget.route);
    if (page === undefined) return { budget, page, status: 'MISSING' };
    return { budget, page, status: page.gzipBytes <= budget.maxGzipBytes ? 'PASS' : 'OVER' };
  });
}
