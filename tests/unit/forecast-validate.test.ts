import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoWindAt } from '../../src/data/forecast/demo.ts';
import { FORECAST_BOUNDS, validateHours, type RawHour } from '../../src/data/forecast/validate.ts';

const T0 = Date.UTC(2026, 10, 21, 10) / 1000;
const figure = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.double({ min: -2000, max: 2000 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, 360, 400, 100),
);
const rawHour = fc.record({
  time: fc.oneof(
    fc.integer({ min: -3, max: 80 }).map((h) => T0 + h * 3600),
    fc.constant(null),
    fc.constant(T0 + 1800),
  ),
  speedKmh: figure,
  directionDeg: figure,
  gustsKmh: figure,
  temperatureC: figure,
  precipitationMm: figure,
  precipitationProbabilityPct: figure,
});

const within = (v: number, b: { min: number; max: number }) => v >= b.min && v <= b.max;

describe('forecast validation', () => {
  it('keeps only possible hours, in strictly rising whole hours, and counts every other one (property)', () => {
    fc.assert(
      fc.property(fc.array(rawHour, { maxLength: 80 }), (raw: RawHour[]) => {
        const { hours, unusable } = validateHours(raw);
        expect(hours.length + unusable).toBe(raw.length);
        hours.forEach((h, i) => {
          expect(h.time % 3600).toBe(0);
          if (i > 0) expect(h.time).toBeGreaterThan(hours[i - 1]?.time ?? Infinity);
          expect(within(h.speedKmh, FORECAST_BOUNDS.speedKmh)).toBe(true);
          expect(h.directionDeg >= 0 && h.directionDeg < 360).toBe(true);
          if (h.gustsKmh !== null) expect(h.gustsKmh).toBeGreaterThanOrEqual(h.speedKmh);
          if (h.gustsKmh !== null) expect(h.gustsKmh).toBeLessThanOrEqual(FORECAST_BOUNDS.speedKmh.max);
          if (h.temperatureC !== null)
            expect(within(h.temperatureC, FORECAST_BOUNDS.temperatureC)).toBe(true);
          if (h.precipitationMm !== null)
            expect(within(h.precipitationMm, FORECAST_BOUNDS.precipitationMm)).toBe(true);
          if (h.precipitationProbabilityPct !== null)
            expect(within(h.precipitationProbabilityPct, FORECAST_BOUNDS.precipitationProbabilityPct)).toBe(
              true,
            );
        });
      }),
      { numRuns: 500 },
    );
  });

  it('passes a clean hour through unchanged, 360° as 0°', () => {
    const clean = {
      time: T0,
      speedKmh: 20,
      directionDeg: 360,
      gustsKmh: 31,
      temperatureC: -4.5,
      precipitationMm: 0,
      precipitationProbabilityPct: 15,
    };
    expect(validateHours([clean])).toEqual({ hours: [{ ...clean, directionDeg: 0 }], unusable: 0 });
  });

  it('gives demo weather that is always possible, and says so for rain and cold somewhere', () => {
    const hours = Array.from({ length: 24 * 365 }, (_, i) => demoWindAt({ lat: 47, lon: 8 }, T0 + i * 3600));
    expect(validateHours(hours).unusable).toBe(0);
    const rainy = hours.filter((h) => (h.precipitationMm ?? 0) >= 0.5).length / hours.length;
    expect(rainy).toBeGreaterThan(0.05);
    expect(rainy).toBeLessThan(0.3);
    expect(hours.some((h) => (h.temperatureC ?? 99) < 0)).toBe(true);
    expect(hours.some((h) => (h.temperatureC ?? -99) > 20)).toBe(true);
  });
});
