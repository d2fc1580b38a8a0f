/**
 * `import { z } from 'zod'` read as `import * as z from 'zod'` in the
 * functions (decision 0045).
 *
 * zod's index hands out `z` as a binding, `export { z }` of its own
 * `import * as z`. esbuild cannot see which members of a namespace reach a
 * module through such a binding, so one module that imports `{ z }` keeps
 * all of zod in the bundle: 202 KB instead of 77 KB for a bundle that builds
 * one object schema, and a cold process spent about 15 ms more CPU
 * evaluating it (28 against 12 ms, median of seven on this machine). Read
 * as a namespace import, the same `z.object(…)` is shaken like any other
 * import: the namespace has the same members (the index re-exports them
 * all), so only what a function uses stays. The rewrite is exact text, the
 * one spelling the sources use; other spellings are left as they are.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

const BINDING_IMPORT = "import { z } from 'zod';";
const NAMESPACE_IMPORT = "import * as z from 'zod';";

/** A module's source with its `{ z }` import from zod read as a namespace import; other text unchanged. */
export function withZodNamespace(source: string): string {
  return source.replaceAll(BINDING_IMPORT, NAMESPACE_IMPORT);
}

/** The esbuild step: the project's own TypeScript modules (not packages) loaded through `withZodNamespace`. */
export function zodNamespace(): Plugin {
  return {
    name: 'zod-namespace',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (/[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        const source = await readFile(args.path, 'utf8');
        return source.includes(BINDING_IMPORT)
          ? { contents: withZodNamespace(source), loader: 'ts' }
          : undefined;
      });
    },
  };
}
