/**
 * Ajv, in the MCP function, evaluated when a JSON Schema is first validated
 * instead of when the MCP SDK is imported.
 *
 * The SDK's Node entry makes Ajv its default JSON Schema validator, and its
 * Ajv provider module runs all of Ajv's CommonJS modules (Ajv, its 2019-09
 * and 2020-12 engines, ajv-formats) as it is evaluated: about 11 ms of CPU
 * in a fresh process, paid by every cold start of `api/mcp`. The server
 * builds its validator once and asks it for nothing unless it validates an
 * elicitation answer, which this server never sends; the tools' input and
 * output go through zod. The provider's class already builds its Ajv
 * engines on first use; this rewrite makes the modules those engines come
 * from load on first use too, by turning the four eager `require_*()` calls
 * into getters over the same (cached) CommonJS wrappers.
 *
 * The rewrite works on the SDK's published text, so each piece it replaces
 * must be found exactly once, or the bundle step fails and names it: an SDK
 * update that changes the provider then needs a look here rather than
 * shipping an eager or broken provider. `tests/unit/lazy-ajv.test.ts` runs
 * the rewritten module against Ajv's answers.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** What the provider runs at evaluation, and what stands in for it. */
const REWRITES: readonly (readonly [string, string])[] = [
  ['var import_ajv = require_ajv();', 'var import_ajv = { get Ajv() { return require_ajv().Ajv; } };'],
  [
    'var import__2019 = require__2019();',
    'var import__2019 = { get Ajv2019() { return require__2019().Ajv2019; } };',
  ],
  [
    'var import__2020 = require__2020();',
    'var import__2020 = { get Ajv2020() { return require__2020().Ajv2020; } };',
  ],
  [
    'var import_dist = /* @__PURE__ */ __toESM(require_dist(), 1);',
    'var import_dist = { get default() { return __toESM(require_dist(), 1).default; } };',
  ],
  [
    'const addFormats = import_dist.default;',
    'const addFormats = (...args) => import_dist.default(...args);',
  ],
  // The module's own `Ajv` export (read at evaluation) is imported by nothing in the SDK but this file.
  ['const Ajv = import_ajv.Ajv;', ''],
  [
    'export { AjvJsonSchemaValidator as n, addFormats as r, Ajv as t };',
    'export { AjvJsonSchemaValidator as n, addFormats as r };',
  ],
];

/** The provider's source with Ajv's modules deferred; throws when the SDK's text is not the one expected. */
export function lazyAjvProviderSource(source: string): string {
  let text = source;
  for (const [eager, lazy] of REWRITES) {
    const first = text.indexOf(eager);
    if (first < 0 || text.indexOf(eager, first + eager.length) >= 0) {
      throw new Error(
        `The MCP SDK's Ajv provider no longer holds "${eager}" exactly once; review scripts/vercel/lazy-ajv.ts.`,
      );
    }
    text = text.slice(0, first) + lazy + text.slice(first + eager.length);
  }
  return text;
}

/** Where the SDK keeps its Ajv provider (`dist/ajvProvider-<hash>.mjs`). */
export const AJV_PROVIDER = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]ajvProvider-[\w-]+\.mjs$/;

/** The esbuild step: the SDK's Ajv provider, rewritten by `lazyAjvProviderSource`. */
export function lazyAjv(): Plugin {
  return {
    name: 'lazy-ajv',
    setup(build) {
      build.onLoad({ filter: AJV_PROVIDER }, (args) => ({
        contents: lazyAjvProviderSource(readFileSync(args.path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
