/**
 * lru-cache, in the functions, with its key and value lists made by
 * `new Array(max).fill(undefined)` instead of
 * `Array.from({ length: max }).fill(undefined)`: the same arrays (`max`
 * elements, all undefined), made without reading `max` properties one by one.
 *
 * `Array.from` of an object with only a `length` reads each index through
 * V8's generic property lookup, some 400 instructions an element. The MCP
 * function builds its caches as its first call opens its parts (the forecast
 * cells' two of 12,000 entries, the catalog's, the derived results'): 61,000
 * elements, about 25 M instructions of that call (2 % of the whole process)
 * before anything is cached. The lists are filled at once either way, so
 * every slot holds `undefined` from the start, as before.
 *
 * The rewrite is one pattern (the package's minified module spells it
 * `Array.from({length:t}).fill(void 0)`) and must be found twice, or the build fails
 * (`lruCacheListsSource`), so a new lru-cache cannot slip by unrewritten or
 * half rewritten.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** `Array.from({ length: max }).fill(undefined)`, as the package's modules write it, minified or not. */
const SLOW_LIST = /Array\.from\(\{\s*length:\s*([A-Za-z_$][\w$]*)\s*\}\)\.fill\((?:undefined|void 0)\)/g;

/** lru-cache's module with both lists made by `new Array(max).fill(undefined)`; throws unless it has exactly two. */
export function lruCacheListsSource(source: string): string {
  const found = [...source.matchAll(SLOW_LIST)].length;
  if (found !== 2)
    throw new Error(
      `lru-cache builds ${found} lists as scripts/vercel/lru-cache-lists.ts expects 2: check the rewrite.`,
    );
  return source.replace(SLOW_LIST, (_, max: string) => `new Array(${max}).fill(void 0)`);
}

/** The esbuild step: lru-cache's ES module loaded through `lruCacheListsSource`. */
export function lruCacheLists(): Plugin {
  return {
    name: 'lru-cache-lists',
    setup(build) {
      // The ES build Node's conditions pick (its `node` export, minified, in 11.x) and its siblings.
      build.onLoad(
        { filter: /[\\/]lru-cache[\\/]dist[\\/]esm[\\/](node[\\/])?index(\.min)?\.js$/ },
        async (args) => {
          const source = await readFile(args.path, 'utf8');
          // Older majors, which other packages may bring, build their lists otherwise: left as they are.
          if (source.search(SLOW_LIST) < 0) return undefined;
          return { contents: lruCacheListsSource(source), loader: 'js' };
        },
      );
    },
  };
}
