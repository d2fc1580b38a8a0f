/**
 * `@photostructure/tz-lookup` with its zone grid read from a file beside the
 * bundles instead of scanned as source (decision 0045, follow-up).
 *
 * The package is one function whose first statement is a 65 KB string
 * literal, the packed grid of time zones. In a bundle, V8 scans that literal
 * when the file is parsed and again when the function is first compiled;
 * a cold MCP call by coordinates (whose answer names the zone at its point)
 * paid about 10 M instructions for the two scans. Here the package loads as
 * an ES module whose grid is read, once, from `tz-lookup.data` (the same
 * characters, Latin-1) with the first lookup; everything else is the
 * package's own code, unchanged, so every point gets the zone it got.
 * `bundleFunctions` writes the file beside the bundles, and the
 * `new URL('./tz-lookup.data', import.meta.url)` names it for Vercel's file
 * tracing, as the other data files are.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The file the bundled tz-lookup reads its grid from, beside the bundles. */
export const TZ_LOOKUP_DATA = 'tz-lookup.data';

const HEAD = 'function tzlookup(Y,W){var X="';
const TAIL = '"undefined"!=typeof module&&(module.exports=tzlookup);';

/** The package's source split into its grid and an ES module that reads the grid from the file. */
export function tzLookupParts(source: string): { readonly data: string; readonly module: string } {
  const start = source.indexOf(HEAD);
  const end = source.indexOf('"', start + HEAD.length);
  const tail = source.lastIndexOf(TAIL);
  if (start !== 0 || end < 0 || tail < 0 || source.slice(tail + TAIL.length).trim() !== '')
    throw new Error(
      '@photostructure/tz-lookup no longer has the shape scripts/vercel/tz-lookup-data.ts reads.',
    );
  const data = source.slice(start + HEAD.length, end);
  if (/[^\x20-\x7e]|\\/.test(data)) throw new Error("tz-lookup's grid is no longer plain printable text.");
  const module = [
    "import { readFileSync } from 'node:fs';",
    'let grid;',
    `const gridOf = () => (grid ??= readFileSync(new URL('./${TZ_LOOKUP_DATA}', import.meta.url), 'latin1'));`,
    `function tzlookup(Y,W){var X=gridOf()${source.slice(end + 1, tail)}`,
    'export default tzlookup;',
    '',
  ].join('\n');
  return { data, module };
}

/** The esbuild step: the package loaded as `tzLookupParts` makes it. */
export function tzLookupData(): Plugin {
  return {
    name: 'tz-lookup-data',
    setup(build) {
      build.onLoad({ filter: /[\\/]@photostructure[\\/]tz-lookup[\\/]tz\.js$/ }, async (args) => ({
        contents: tzLookupParts(await readFile(args.path, 'utf8')).module,
        loader: 'js',
      }));
    },
  };
}
