import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gradedRecordGain, MAX_STRETCHES, type GradedLeg } from '../../src/core/graded-ride.ts';
import { powerFromRecord, recordGain } from '../../src/core/power-model.ts';

/** `n` legs of equal length along `bearings` (cycled), each with the grade `grade(i)`. */
function legs(
  n: number,
  distanceM: number,
  bearings: readonly number[],
  grade: (i: number) => number | null,
) {
  return Array.from({ length: n }, (_, i): GradedLeg => ({
    lengthM: distanceM / n,
    bearingDeg: bearings[i % bearings.length] ?? 0,
    gradePct: grade(i),
  }));
}

const ride = fc.record({
  distanceM: fc.double({ min: 500, max: 20_000, noNaN: true }),
  gradePct: fc.double({ min: 0.5, max: 12, noNaN: true }),
  speedKmh: fc.double({ min: 12, max: 35, noNaN: true }),
  n: fc.integer({ min: 1, max: MAX_STRETCHES }),
  bearings: fc.array(fc.double({ min: 0, max: 359.9, noNaN: true }), { minLength: 1, maxLength: 8 }),
  windSpeedKmh: fc.double({ min: 0, max: 40, noNaN: true }),
  windDirectionDeg: fc.double({ min: 0, max: 359.9, noNaN: true }),
});

describe('graded record estimate', () => {
  it('equals the average-grade model when every leg has the average grade (property)', () => {
    fc.assert(
      fc.property(ride, (r) => {
        const recordS = Math.round(r.distanceM / (r.speedKmh / 3.6));
        const graded = legs(r.n, r.distanceM, r.bearings, () => r.gradePct);
        const input = {
          recordS,
          averageGradePct: r.gradePct,
          windSpeedKmh: r.windSpeedKmh,
          windDirectionDeg: r.windDirectionDeg,
        };
        const flat = recordGain({
          distanceM: r.distanceM,
          recordS,
          averageGradePct: r.gradePct,
          wind: {
            legs: graded.map((leg) => ({ bearingDeg: leg.bearingDeg, weight: 1 / r.n })),
            windSpeedKmh: r.windSpeedKmh,
            windDirectionDeg: r.windDirectionDeg,
          },
        });
        const got = gradedRecordGain({ legs: graded, ...input });
        expect(Math.abs(got.powerW - flat.powerW)).toBeLessThanOrEqual(1);
        expect(Math.abs(got.estimatedS - flat.estimatedS)).toBeLessThanOrEqual(0.2);
      }),
      { numRuns: 150 },
    );
  });

  it('re-rides the record exactly in still air, whatever the grades (property)', () => {
    fc.assert(
      fc.property(
        ride,
        fc.array(fc.double({ min: -8, max: 18, noNaN: true }), { minLength: 1, maxLength: 40 }),
        (r, grades) => {
          const average = grades.reduce((a, b) => a + b, 0) / grades.length;
          const recordS = Math.round(r.distanceM / (r.speedKmh / 3.6));
          const graded = legs(grades.length, r.distanceM, r.bearings, (i) => grades[i] ?? null);
          try {
            const got = gradedRecordGain({
              legs: graded,
              recordS,
              averageGradePct: average,
              windSpeedKmh: 0,
              windDirectionDeg: 0,
            });
            expect(Math.abs(got.gainS)).toBeLessThanOrEqual(0.1);
          } catch (error) {
            // A fast record on a descent-heavy line can be no faster than freewheeling.
            expect(error).toBeInstanceOf(RangeError);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('needs more power for the same time when the grade varies around the same average', () => {
    const distanceM = 8000;
    const recordS = 2400;
    const uniform = legs(40, distanceM, [0], () => 7);
    const ramps = legs(40, distanceM, [0], (i) => (i % 2 === 0 ? 2 : 12));
    const input = { recordS, averageGradePct: 7, windSpeedKmh: 0, windDirectionDeg: 0 };
    const even = gradedRecordGain({ legs: uniform, ...input });
    const varied = gradedRecordGain({ legs: ramps, ...input });
    expect(even.powerW).toBe(Math.round(powerFromRecord({ distanceM, recordS, averageGradePct: 7 })));
    expect(varied.powerW).toBeGreaterThan(even.powerW);
  });

  it('takes the average grade where a leg has none, and refuses a record slower than freewheeling', () => {
    const withGaps = legs(10, 5000, [90], (i) => (i < 5 ? null : 6));
    const filled = legs(10, 5000, [90], () => 6);
    const input = { recordS: 1200, averageGradePct: 6, windSpeedKmh: 20, windDirectionDeg: 270 };
    expect(gradedRecordGain({ legs: withGaps, ...input })).toEqual(
      gradedRecordGain({ legs: filled, ...input }),
    );
    const descent = legs(10, 5000, [90], () => -8);
    expect(() =>
      gradedRecordGain({
        legs: descent,
        recordS: 3600,
        averageGradePct: -8,
        windSpeedKmh: 0,
        windDirectionDeg: 0,
      }),
    ).toThrow(RangeError);
  });
});
