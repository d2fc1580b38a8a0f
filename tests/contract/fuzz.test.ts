import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PARAMETERS } from '../../src/core/parameters.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { createResponseValidator, type ResponseValidator } from '../support/openapi-validator.ts';
import { expectProblem } from './run-contract.ts';

const origin = 'http://wind-on-segment.test';
const handle = createApiHandler();
const names = [...Object.keys(PARAMETERS), 'units', 'segment', ''];

const value = fc.oneof(
  fc.double({ min: -500, max: 500, noNaN: true }).map(String),
  fc.integer({ min: -400, max: 400 }).map(String),
  fc.constantFrom('', 'NaN', 'Infinity', '-0', '1e309', '0x1F', ' 12', '1,5', '٣', '1e-400', '.', '--1'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

const query = fc
  .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 9 })
  .map((pairs) => pairs.map(([name, text]) => `${name}=${encodeURIComponent(text)}`).join('&'));

const path = fc.oneof(
  fc.constantFrom('/v1/tailwind', '/v1/bearing', '/v1/plans', '/health', '/openapi.json', '/v1', '/v1/'),
  fc.webPath(),
  fc.string({ maxLength: 16 }).map((text) => `/v1/${encodeURIComponent(text)}`),
);

const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE');

describe('fuzz: generated paths, queries and methods', () => {
  let validate: ResponseValidator;

  beforeAll(async () => {
    validate = createResponseValidator(await (await handle(new Request(`${origin}/openapi.json`))).json());
  });

  it('never fails with a 5xx and always answers a documented shape', async () => {
    await fc.assert(
      fc.asyncProperty(path, query, method, async (p, q, m) => {
        const target = `${p}?${q}`;
        const response = await handle(new Request(origin + target, { method: m }));
        expect(response.status).toBeLessThan(500);
        const text = await response.text();
        if (m === 'HEAD' || response.status === 204) {
          expect(text).toBe('');
          return;
        }
        const body: unknown = JSON.parse(text);
        const pathname = new URL(origin + target).pathname;
        expect(validate(pathname, response.status, response.headers.get('content-type') ?? '', body)).toEqual(
          [],
        );
        if (response.status >= 400) expectProblem(body, response, origin, target);
      }),
      { numRuns: 10_000 },
    );
  });
});
