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
import { dirname } from 'node:path';
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

/** `z.core.<member>` in a package's module, as the better-auth packages write it. */
const CORE_MEMBER = /\bz\.core\.([A-Za-z_$][\w$]*)/g;

/**
 * A package module's `z.core.<member>` read as a named import of that member
 * from `zod/v4/core`; undefined when it has none. `z.core` is zod's whole
 * core as one namespace object: one module that reads a member through it
 * (`@better-auth/oauth-provider` words an issue's path with
 * `z.core.toDotPath`) keeps every export of zod's core in the bundle, in the
 * chunk every function's entry loads, since zod sits there: 63 KB more zod
 * for the MCP function to parse and evaluate at each cold start than a
 * bundle that uses the same schemas without it (the JIT compiler it never
 * runs among them). The named import is the same function.
 */
export function withZodCoreMembers(source: string): string | undefined {
  const members = new Set([...source.matchAll(CORE_MEMBER)].map(([, member]) => member));
  if (members.size === 0) return undefined;
  const imports = [...members].map((member) => `${member} as __zodCore_${member}`).join(', ');
  return (
    `import { ${imports} } from "zod/v4/core";\n` +
    source.replace(CORE_MEMBER, (_, member: string) => `__zodCore_${member}`)
  );
}

/** The esbuild step: the better-auth packages' modules loaded through `withZodCoreMembers` (the only ones that read `z.core`). */
export function zodCoreMembers(): Plugin {
  return {
    name: 'zod-core-members',
    setup(build) {
      build.onLoad(
        { filter: /[\\/]node_modules[\\/](better-auth|@better-auth[\\/][^\\/]+)[\\/].*\.mjs$/ },
        async (args) => {
          const contents = withZodCoreMembers(await readFile(args.path, 'utf8'));
          return contents === undefined
            ? undefined
            : { contents, loader: 'js', resolveDir: dirname(args.path) };
        },
      );
    },
  };
}
