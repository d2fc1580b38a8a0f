import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COORDINATE_PARAMETERS } from '../../src/core/parameters.ts';
import { createApiReplier } from '../../src/rest/handler.ts';

const reply = createApiReplier({}, { memo: 0 });
const WIND = 'wind_speed_kmh=20&wind_direction_deg=250';
const FOUR = { start_lat: '45.0565', start_lon: '6.0307', end_lat: '45.0922', end_lon: '6.0703' };

function answer(query: string): { status: number; body: Record<string, unknown> } {
  const { status, body } = reply('GET', `http://localhost/v1/tailwind?${WIND}&${query}`);
  return { status, body: JSON.parse(body ?? 'null') as Record<string, unknown> };
}

describe('a direction parameter sent but not used', () => {
  it('is named in the hint of a 200, with why: a coordinate beside a bearing', () => {
    const { status, body } = answer('segment_bearing_deg=80&start_lat=1');
    expect(status).toBe(200);
    expect(body['segment_bearing_deg']).toBe(80);
    expect(body['hint']).toMatch(
      /^start_lat was ignored: coordinates give the direction of travel only when all four/,
    );
  });

  it('names a bearing that four coordinates overrode', () => {
    const { status, body } = answer(`segment_bearing_deg=200&${new URLSearchParams(FOUR)}`);
    expect(status).toBe(200);
    expect(body['segment_bearing_deg']).toBe(38.06);
    expect(body['hint']).toMatch(/^segment_bearing_deg was ignored: all four of/);
  });

  it('is named exactly when a bearing and some coordinates were sent, whatever their order', () => {
    const coordinates = fc.subarray([...COORDINATE_PARAMETERS]);
    fc.assert(
      fc.property(fc.boolean(), coordinates, fc.boolean(), (bearing, sent, empties) => {
        if (!bearing && sent.length < 4) return;
        const pairs = sent.map((name) => `${name}=${FOUR[name]}`);
        if (bearing) pairs.push('segment_bearing_deg=80');
        // An empty value is not sent, so it is never named.
        if (empties)
          pairs.push(...COORDINATE_PARAMETERS.filter((name) => !sent.includes(name)).map((n) => `${n}=`));
        const { status, body } = answer(pairs.reverse().join('&'));
        expect(status).toBe(200);
        const ignored = !bearing ? [] : sent.length === 4 ? ['segment_bearing_deg'] : sent;
        if (ignored.length === 0) expect(body).not.toHaveProperty('hint');
        else {
          const named = String(body['hint']).split(' ignored:')[0] ?? '';
          for (const name of [...COORDINATE_PARAMETERS, 'segment_bearing_deg']) {
            expect(named.includes(name)).toBe(ignored.includes(name));
          }
        }
      }),
    );
  });
});
