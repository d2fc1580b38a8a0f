import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import tseslint from 'typescript-eslint';

/**
 * The layers of `src/`, lowest first: a folder may import only from folders
 * of earlier entries (never from its own entry's siblings or anything later).
 * `src/data` and `src/store` share a layer and stay independent of each other.
 * The site (`pages`, `components`, `layouts`), `src/server` and `api/` sit on top.
 */
export const LAYERS = [
  ['core'],
  ['data', 'store'],
  ['rest'],
  ['alerts'],
  ['billing'],
  ['auth'],
  ['mcp'],
  ['app'],
];
const TOP = ['server', 'pages', 'components', 'layouts'];

/** One `no-restricted-imports` block per lower folder: a relative import into a folder above fails. */
function layerRules() {
  return LAYERS.flatMap((layer, index) =>
    layer.map((folder) => {
      const above = [...layer.filter((f) => f !== folder), ...LAYERS.slice(index + 1).flat(), ...TOP];
      return {
        files: [`src/${folder}/**/*.ts`],
        rules: {
          'no-restricted-imports': [
            'error',
            {
              patterns: [
                {
                  regex: `^(\\./|(\\.\\./)+)(.*/)?(${above.join('|')})/`,
                  message: `src/${folder} may not import from a layer above it (${above.join(', ')}): move the shared piece down (see "Layout" in README.md).`,
                },
              ],
            },
          ],
        },
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
  ...layerRules(),
  {
    // The environment is read in one place: the settings schema.
    files: ['src/**/*.ts', 'src/**/*.astro'],
    ignores: ['src/app/settings.ts'],
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
