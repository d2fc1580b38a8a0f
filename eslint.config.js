import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The layers of `src/` as a graph, lowest first (CONTRIBUTING.md, "Layers"):
 * a folder may import from folders of lower layers and from itself, never
 * from a peer of its own layer or from anything above. Peers of one layer
 * (the surfaces, `data` and `store`) share only what lies below them; the
 * HTTP plumbing (`src/http`, the one body reader among it) sits just above
 * `src/core`, so the data adapters that read an answer's body use it too;
 * the use cases (`src/service`) sit between the data and the surfaces, so
 * every surface calls the same ones and none of them can reach back up into
 * a surface; the composition root (`src/app`) wires them together. The site
 * documents the server's limits, so it sits above
 * `src/server`; `api/` sits above everything. The rule
 * (`import-x/no-restricted-paths`) sees every import form: `import`,
 * `export … from` and `import()`.
 */
export const LAYERS = [
  ['core'],
  ['http'],
  ['data', 'store'],
  ['rider'],
  ['service'],
  ['rest', 'mcp', 'account', 'alerts', 'billing', 'auth'],
  ['app'],
  ['server'],
  ['site'],
];
/** What a surface is told when it reaches a store repository without a use case. */
const PAST_THE_USE_CASES =
  'Call a use case in src/service, which reads and writes the store (see "Layers" in CONTRIBUTING.md).';
/** The Astro site is one element of the top layer. */
const SITE = ['pages', 'components', 'layouts'];
const foldersOf = (element) => (element === 'site' ? SITE : [element]);

/** One zone per element: the folders it must not import from (its peers and every layer above). */
export function layerZones(root = import.meta.dirname) {
  return LAYERS.flatMap((layer, index) =>
    layer.map((element) => {
      const forbidden = [...layer.filter((e) => e !== element), ...LAYERS.slice(index + 1).flat()];
      return {
        target: foldersOf(element).map((folder) => `${root}/src/${folder}`),
        from: [...forbidden.flatMap(foldersOf).map((folder) => `${root}/src/${folder}`), `${root}/api`],
        message: `src/${element === 'site' ? '{pages,components,layouts}' : element} may import only from the layers below it, not from ${forbidden.join(', ')} or api/ (see "Layers" in CONTRIBUTING.md).`,
      };
    }),
  );
}

export default tseslint.config(
  { ignores: ['dist/', '.astro/', '.vercel/', 'api/_bundle/', 'test-results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.stylistic,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true } }],
    },
  },
  {
    // Config files and Vercel functions must default-export; nothing else does.
    files: ['*.config.{js,mjs,ts}', 'api/**/*.{js,ts}'],
    rules: { 'no-restricted-exports': 'off' },
  },
  {
    files: ['src/**/*.{ts,astro}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones() }] },
  },
  {
    // The surfaces that answer a request (REST, MCP, the settings page's API, sign-in) reach stored
    // data only through a use case (src/service), so every surface applies the same rules; they may
    // name its types. The alert job and payments own their tables and are not such surfaces.
    files: ['src/mcp/**/*.ts', 'src/rest/**/*.ts', 'src/account/**/*.ts', 'src/auth/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/store/repositories/*'],
              allowTypeImports: true,
              message: PAST_THE_USE_CASES,
            },
          ],
        },
      ],
      // The same for `import()`, which the rule above does not see.
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/store\\/repositories\\//]', message: PAST_THE_USE_CASES },
      ],
    },
  },
  {
    // The environment is read in one place: the settings schema.
    files: ['src/**/*.ts', 'src/**/*.astro'],
    // The schema's reader, and the REST function's reader of the same entries without zod (decision 0045).
    ignores: ['src/app/settings.ts', 'src/app/settings/plain-settings.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings from src/app/settings.ts (one schema over the whole environment).',
        },
      ],
    },
  },
);
