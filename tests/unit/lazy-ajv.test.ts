import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AJV_PROVIDER, lazyAjvProviderSource } from '../../scripts/vercel/lazy-ajv.ts';

interface Validator {
  getValidator(schema: object): (input: unknown) => { valid: boolean; errorMessage?: string };
}
type ValidatorClass = new () => Validator;

/** The SDK's dist folder and its Ajv provider, found the way the bundler meets them. */
const require = createRequire(import.meta.url);
const dist = dirname(require.resolve('@modelcontextprotocol/server'));
const providerName = readdirSync(dist).find((name) => AJV_PROVIDER.test(join(dist, name)));
if (providerName === undefined) throw new Error(`No Ajv provider in ${dist}.`);
const original = readFileSync(join(dist, providerName), 'utf8');

/**
 * The rewritten provider as a module of its own: written beside copies of
 * the SDK's other dist files (its relative imports), then imported.
 */
async function rewrittenValidator(): Promise<ValidatorClass> {
  const dir = mkdtempSync(join(tmpdir(), 'wos-lazy-ajv-'));
  for (const name of readdirSync(dist).filter((file) => /\.mjs(\.map)?$/.test(file))) {
    copyFileSync(join(dist, name), join(dir, name));
  }
  writeFileSync(join(dir, providerName ?? ''), lazyAjvProviderSource(original));
  const module = (await import(pathToFileURL(join(dir, providerName ?? '')).href)) as { n: ValidatorClass };
  return module.n;
}

async function originalValidator(): Promise<ValidatorClass> {
  const module = (await import(pathToFileURL(join(dist, providerName ?? '')).href)) as { n: ValidatorClass };
  return module.n;
}

/** One schema per engine the provider picks by `$schema`, with formats and nesting. */
const SCHEMAS: readonly object[] = [
  {
    type: 'object',
    properties: { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 0 } },
    required: ['email'],
  },
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'array',
    items: { type: 'string', format: 'date' },
    maxItems: 3,
  },
  {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    anyOf: [
      { type: 'number', exclusiveMaximum: 10 },
      { type: 'string', format: 'uri' },
    ],
  },
];

describe("the MCP function's Ajv provider, its Ajv modules loaded on first use", () => {
  it('validates every value as the SDK published it does', async () => {
    const [Lazy, Eager] = await Promise.all([rewrittenValidator(), originalValidator()]);
    const [lazy, eager] = [new Lazy(), new Eager()];
    const valuesLike = fc.oneof(
      fc.anything(),
      fc.record({ email: fc.oneof(fc.emailAddress(), fc.string()), count: fc.integer({ min: -3, max: 3 }) }),
      fc.array(fc.oneof(fc.constant('2026-07-28'), fc.string()), { maxLength: 4 }),
      fc.oneof(fc.double(), fc.webUrl()),
    );
    for (const schema of SCHEMAS) {
      const [check, reference] = [lazy.getValidator(schema), eager.getValidator(schema)];
      fc.assert(
        fc.property(valuesLike, (value) => {
          expect(check(value)).toEqual(reference(value));
        }),
        { numRuns: 300 },
      );
    }
  });

  it('tells a valid value from an invalid one', async () => {
    const validator = new (await rewrittenValidator())();
    const check = validator.getValidator(SCHEMAS[0] ?? {});
    expect(check({ email: 'rider@example.com', count: 2 }).valid).toBe(true);
    const refused = check({ email: 'not an address' });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toMatch(/format/);
  });

  it('fails the bundle step when the SDK text it rewrites has changed', () => {
    expect(() => lazyAjvProviderSource(original.replace('var import_ajv = require_ajv();', ''))).toThrow(
      /require_ajv\(\).*exactly once/,
    );
    const twice = `${original}\nvar import__2019 = require__2019();`;
    expect(() => lazyAjvProviderSource(twice)).toThrow(/require__2019/);
  });

  it('runs none of the four Ajv modules while the provider is evaluated', () => {
    const rewritten = lazyAjvProviderSource(original);
    const topLevelCalls = rewritten
      .split('\n')
      .filter((line) => /^(var|const|let) \w+ = .*require_(ajv|_2019|_2020|dist)\(\)/.test(line))
      .filter((line) => !line.includes('get '));
    expect(topLevelCalls).toEqual([]);
    expect(original.split('\n').filter((line) => /^var import_\w+ = .*require_/.test(line))).toHaveLength(4);
  });
});
