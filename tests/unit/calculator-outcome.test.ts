import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculate, FIELD_NAMES, type Fields } from '../../src/components/calculator/outcome.ts';
import { PARAMETERS } from '../../src/core/parameters.ts';
import { createApiHandler } from '../../src/rest/handler.ts';

const handle = createApiHandler();

/** Mostly valid numbers, sometimes blank, out of range or not a number at all. */
const fieldText = (name: keyof typeof PARAMETERS) => {
  const { min, max } = PARAMETERS[name];
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.double({ min, max, noNaN: true }).map((v) => String(Math.round(v * 1000) / 1000)),
    },
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom(String(max + 1), String(min - 1), 'abc', '1,5', ' 12 ', '0x1') },
  );
};

const fields: fc.Arbitrary<Fields> = fc.record(
  Object.fromEntries(FIELD_NAMES.map((name) => [name, fieldText(name)])) as Record<
    keyof typeof PARAMETERS,
    fc.Arbitrary<string>
  >,
);

describe('the calculator outcome', () => {
  it('is what /v1/tailwind answers for the same fields', async () => {
    await fc.assert(
      fc.asyncProperty(fields, async (input) => {
        const outcome = calculate(input);
        const response = await handle(new Request(`http://calc.test/v1/tailwind?${outcome.query}`));
        const body = (await response.json()) as Record<string, unknown>;
        if (outcome.kind === 'result') {
          expect(response.status).toBe(200);
          expect(body).toMatchObject({
            signed_tailwind_kmh: outcome.signedKmh,
            crosswind_kmh: outcome.crosswindKmh,
            effect: outcome.effect,
            segment_bearing_deg: outcome.bearingDeg,
          });
        } else {
          expect(response.status).toBe(400);
          expect(body).toMatchObject({
            code: outcome.code,
            parameter: outcome.parameter,
            hint: outcome.hint,
          });
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('tells the rider every problem in the form’s words, never with the API’s parameter names', () => {
    const apiWords = new RegExp(`${FIELD_NAMES.join('|')}|=`);
    fc.assert(
      fc.property(fields, (input) => {
        const outcome = calculate(input);
        if (outcome.kind === 'result') return;
        expect(outcome.message).not.toMatch(apiWords);
        expect(outcome.message).toMatch(
          /^(Enter the|The direction of travel is missing|The start and end are the same point)/,
        );
        for (const message of outcome.invalid.values()) expect(message).not.toMatch(apiWords);
      }),
      { numRuns: 2000 },
    );
  });

  it('words each kind of problem as the form names its fields', () => {
    const message = (input: Fields) => {
      const outcome = calculate(input);
      return outcome.kind === 'problem' ? outcome.message : undefined;
    };
    expect(message({ wind_speed_kmh: '400', wind_direction_deg: '250', segment_bearing_deg: '80' })).toBe(
      'Enter the wind speed in km/h: a number from 0 to 300, for example 20.',
    );
    expect(message({ wind_speed_kmh: '20', wind_direction_deg: '', segment_bearing_deg: '80' })).toBe(
      'Enter the wind direction in degrees: a number from 0 to 360, for example 250.',
    );
    expect(message({ wind_speed_kmh: '20', wind_direction_deg: '250' })).toBe(
      'The direction of travel is missing. Enter the segment bearing, or the start and end latitude and longitude of the segment.',
    );
    expect(
      message({
        wind_speed_kmh: '20',
        wind_direction_deg: '250',
        start_lat: '45',
        start_lon: '6',
        end_lat: '45.1',
      }),
    ).toBe(
      'Enter the end longitude in degrees: a number from -180 to 180, for example 6.0703. All four coordinates are needed, or clear them and enter the segment bearing instead.',
    );
    const same = { start_lat: '45', start_lon: '6', end_lat: '45', end_lon: '6' };
    expect(message({ wind_speed_kmh: '20', wind_direction_deg: '250', ...same })).toMatch(
      /^The start and end are the same point, so they give no direction\./,
    );
  });

  it('gives the worked example', () => {
    const outcome = calculate({ wind_speed_kmh: '20', wind_direction_deg: '250', segment_bearing_deg: '80' });
    expect(outcome).toMatchObject({ kind: 'result', signedKmh: 19.7, crosswindKmh: 3.5, effect: 'tailwind' });
  });
});
