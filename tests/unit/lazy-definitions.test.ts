import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { createApiReplier } from '../../src/rest/handler.ts';
import { createReplier } from '../../src/rest/replier.ts';

/** A replier that loads the definitions on first need, as the REST function's does, counting the loads. */
function lazyReplier() {
  const loads = { count: 0 };
  const replier = createReplier(
    {},
    async () => {
      loads.count += 1;
      await Promise.resolve();
      return ENDPOINTS;
    },
    { memo: 0 },
  );
  return { replier, loads };
}

const ORIGIN = 'http://127.0.0.1:4321';

describe('a replier that loads the endpoints’ definitions on first need', () => {
  it('answers a valid plain query of a synchronous endpoint at once, without them', () => {
    const { replier, loads } = lazyReplier();
    const eager = createApiReplier({}, { memo: 0 });
    for (const target of [
      '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80',
      '/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80&start_lat=1',
      '/v1/bearing?start_lat=45&start_lon=6&end_lat=45.1&end_lon=6.1',
      '/v1/plans',
      '/health',
      '/nope',
    ]) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST']) {
        const answer = replier(method, `${ORIGIN}${target}`);
        expect(answer).not.toBeInstanceOf(Promise);
        expect(answer).toStrictEqual(eager(method, `${ORIGIN}${target}`));
      }
    }
    expect(loads.count).toBe(0);
  });

  it('answers every other query, problems and /openapi.json byte for byte as the eager replier, loading them once', async () => {
    const { replier, loads } = lazyReplier();
    const eager = createApiReplier({}, { memo: 0 });
    const value = fc.constantFrom('', '20', '-1', '400', '1e1', 'x', '250', '%32%30', '20&wind_speed_kmh=3');
    const name = fc.constantFrom(
      'wind_speed_kmh',
      'wind_direction_deg',
      'segment_bearing_deg',
      'start_lat',
      'end_lon',
      'wind_speed',
    );
    const query = fc
      .array(fc.tuple(name, value), { maxLength: 5 })
      .map((pairs) => pairs.map(([key, text]) => `${key}=${text}`).join('&'));
    const path = fc.constantFrom('/v1/tailwind', '/v1/bearing', '/openapi.json', '/v1/plans/');
    await fc.assert(
      fc.asyncProperty(path, query, fc.constantFrom('GET', 'HEAD'), async (pathname, search, method) => {
        const href = `${ORIGIN}${pathname}?${search}`;
        expect(await replier(method, href)).toStrictEqual(eager(method, href));
      }),
      { numRuns: 500 },
    );
    expect(loads.count).toBe(1);
  });
});
