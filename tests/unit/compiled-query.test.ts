import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ApiError } from '../../src/core/problems.ts';
import { compilePlan } from '../../src/rest/compiled-query.ts';
import { createApiReplier } from '../../src/rest/handler.ts';
import { parseQuery } from '../../src/rest/query.ts';
import { BearingQuerySchema, queryPlan, TailwindQuerySchema } from '../../src/rest/schemas/query-schemas.ts';

const NAMES = [
  'wind_speed_kmh',
  'wind_direction_deg',
  'segment_bearing_deg',
  'start_lat',
  'start_lon',
  'end_lat',
  'end_lon',
] as const;

/** Values near every bound of every parameter, in and out of range, and what is not a decimal. */
const decimal = fc.oneof(
  fc.integer({ min: -400, max: 400 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -400, max: 400 }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '90',
    '90.0001',
    '-90',
    '-90.5',
    '180',
    '180.1',
    '300',
    '300.1',
    '360',
    '360.01',
  ),
  fc.constantFrom(
    '1e2',
    '2e1',
    '.5',
    '5.',
    '00',
    '1e400',
    '-1e-400',
    '45.0565',
    '6.0307',
    '45.0922',
    '6.0703',
  ),
);
const junk = fc.constantFrom(
  '',
  'abc',
  'NaN',
  'Infinity',
  '0x10',
  '1-2',
  '1.2.3',
  'e5',
  '-',
  '.',
  '20km',
  '1_0',
);
const value = fc.oneof({ weight: 4, arbitrary: decimal }, { weight: 1, arbitrary: junk });
/** Known names, near misses (named in a missing parameter's hint), and names the API ignores. */
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('wind_speed', 'wind_dir', 'bearing', 'start-lat', 'units', 'x') },
);
const pair = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) },
  { weight: 1, arbitrary: name },
  { weight: 1, arbitrary: fc.constantFrom('', '=', '=5', 'a=b=c') },
);
/** Plain queries (request-target.ts's PLAIN_QUERY alphabet), often complete, often not. */
const plainQuery = fc
  .tuple(
    fc.constantFrom(
      '',
      'wind_speed_kmh=20&wind_direction_deg=250&',
      'wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80&',
      'start_lat=45.0565&start_lon=6.0307&end_lat=45.0922&end_lon=6.0703&',
    ),
    fc.array(pair, { maxLength: 9 }),
  )
  .map(([start, pairs]) => start + pairs.join('&'));

type Outcome = { readonly value: unknown } | { readonly error: unknown };

function schemaPath(schema: z.ZodObject, query: string): Outcome {
  try {
    return { value: parseQuery(schema, new URLSearchParams(query)) };
  } catch (error) {
    return { error };
  }
}

describe('the query reader compiled from a schema', () => {
  for (const [label, schema] of [
    ['tailwind', TailwindQuerySchema],
    ['bearing', BearingQuerySchema],
  ] as const) {
    const plan = queryPlan(schema);
    const compiled = plan && compilePlan(plan);

    it(`exists for the ${label} query`, () => {
      expect(compiled).toBeTypeOf('function');
    });

    it(`accepts exactly the ${label} queries the schema accepts, with the same values`, () => {
      fc.assert(
        fc.property(plainQuery, (query) => {
          const expected = schemaPath(schema, query);
          const actual = compiled?.(query);
          if ('value' in expected) expect(actual).toStrictEqual(expected.value);
          else {
            expect(expected.error).toBeInstanceOf(ApiError);
            expect(actual).toBeUndefined();
          }
        }),
        { numRuns: 3000 },
      );
    });
  }
});

describe('the replier with compiled readers', () => {
  const fast = createApiReplier({}, { memo: 0 });
  const schema = createApiReplier({}, { memo: 0, compiled: false });
  const path = fc.constantFrom(
    '/v1/tailwind',
    '/v1/tailwind',
    '/v1/tailwind',
    '/v1/bearing',
    '/v1/plans',
    '/nope',
  );
  /** Some targets the plain reader leaves to the URL parser: escapes, `+`, non-ASCII. */
  const spelled = fc.oneof(
    { weight: 5, arbitrary: plainQuery },
    { weight: 1, arbitrary: plainQuery.map((query) => query.replace('_', '%5F').replace('=', '=+')) },
  );

  it('answers every generated query as the schema path does: status, headers, body, code, parameter, hint', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(path, spelled, fc.constantFrom('GET', 'HEAD'), (pathname, query, method) => {
        const href = `http://127.0.0.1:4321${pathname}?${query}`;
        const expected = schema(method, href);
        expect(fast(method, href)).toStrictEqual(expected);
        if (expected.body) {
          const body = JSON.parse(expected.body) as { code?: string; hint?: string };
          seen.add(body.code ?? (body.hint === undefined ? `${expected.status}` : `${expected.status} hint`));
        }
      }),
      { numRuns: 4000 },
    );
    // The generated queries reach every answer the query decides: results with and without a hint, each problem.
    expect([...seen].sort()).toEqual([
      '200',
      '200 hint',
      'invalid_parameter',
      'missing_parameter',
      'not_found',
    ]);
  });
});
