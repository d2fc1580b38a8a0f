/**
 * The Vercel functions' settings reader without zod (`plainSettings`, decision 0045) against the
 * schema's (`readSettings`): on generated environments, valid and not, it gives the same settings
 * and warnings, or throws the same error (every refusal, worded alike; payments half set).
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
  it('reads every environment as the schema does: the same settings and warnings, or the same error', () => {
    const seen = { read: 0, refused: 0, other: 0 };
    fc.assert(
      fc.property(environment, (env) => {
        const schema = outcome(readSettings, env);
        expect(outcome(plainSettings, env)).toStrictEqual(schema);
        if (!('error' in schema)) seen.read += 1;
        else if (schema.error.includes('Invalid environment')) seen.refused += 1;
        else seen.other += 1;
      }),
      {
        numRuns: 3000,
        // Payments half set, refused by interpretation: drawn by chance only now and then.
        examples: [
          [{ STRIPE_SECRET_KEY: 'sk_test_123' }],
          [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc+/=', WOS_ZZZ: '1' }],
        ],
      },
    );
    // The environments reach each: read, refused, and refused by interpretation (payments half set).
    expect(Math.min(seen.read, seen.refused)).toBeGreaterThan(100);
    expect(seen.other).toBeGreaterThan(0);
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
