/**
 * The REST function's settings reader without zod (`plainSettings`, decision 0045) against the
 * schema's (`readSettings`): on generated environments, valid and not, it gives the same settings
 * and the same warnings, throws what interpretation throws, and reads nothing the schema refuses
 * (then `undefined`, and the schema words the refusal).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/app/settings.ts';
import { ENVIRONMENT } from '../../src/app/settings/environment.ts';
import { plainSettings } from '../../src/app/settings/plain-settings.ts';

/** Texts the readers accept for some variables and refuse for others, blanks and odd spacing among them. */
const TEXTS = [
  '',
  '  ',
  '0',
  '1',
  '-1',
  '1.5',
  '100',
  '4000',
  '60000',
  '60001',
  '65536',
  'true',
  ' FALSE ',
  'yes',
  'demo',
  'live',
  'open-meteo',
  'off',
  'seed',
  'online',
  'gazetteer',
  'ecmwf_ifs025',
  'gfs025',
  'https://wind.example.org',
  ' http://127.0.0.1:4321/ ',
  'ftp://wind.example.org',
  'a.example.org,b.example.org',
  'postgres://rider@127.0.0.1/wos',
  'mysql://rider@127.0.0.1/wos',
  'price_1AbC',
  'sk_test_123',
  'whsec_abc+/=',
  'alerts@example.org',
  'not an address',
  'x'.repeat(40),
];

const NAMES = Object.keys(ENVIRONMENT);

const environment = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(fc.constantFrom(...TEXTS), fc.string()), {
      maxKeys: 8,
    }),
    fc.dictionary(fc.constantFrom('WOS_FORECASTS', 'WOS_PORT', 'WOS_ZZZ'), fc.constant('1'), { maxKeys: 2 }),
  )
  .map(([known, unknown]) => ({ ...known, ...unknown }));

type Outcome = { readonly settings: unknown; readonly warnings: string[] } | { readonly error: string };

function outcome(
  read: (env: Record<string, string>, warn: (line: string) => void) => unknown,
  env: Record<string, string>,
): Outcome {
  const warnings: string[] = [];
  try {
    return { settings: read(env, (line) => warnings.push(line)), warnings };
  } catch (error) {
    return { error: String(error) };
  }
}

describe('the settings read without zod', () => {
  it('reads every environment the schema reads, to the same settings and warnings, and nothing it refuses', () => {
    const refused = { plain: 0, schema: 0 };
    fc.assert(
      fc.property(environment, (env) => {
        const schema = outcome(readSettings, env);
        const plain = outcome(plainSettings, env);
        if ('error' in schema && 'settings' in plain && plain.settings === undefined) {
          refused.plain += 1;
          expect(schema.error).toContain('Invalid environment');
        } else {
          if ('error' in schema) refused.schema += 1;
          expect(plain).toStrictEqual(schema);
        }
      }),
      { numRuns: 3000 },
    );
    // The generated environments reach both: refusals, and errors of interpretation (payments half set).
    expect(refused.plain).toBeGreaterThan(100);
    expect(refused.schema).toBeGreaterThan(0);
  });

  it('reads an empty environment and the bench’s deployment as the schema does', () => {
    for (const env of [
      {},
      { VERCEL: '1', VERCEL_URL: 'wind.example.org', WOS_FORECAST: 'demo', WOS_DISCOVERY: 'seed' },
    ]) {
      expect(plainSettings(env)).toStrictEqual(readSettings(env));
    }
  });
});
