import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  airDensityAtElevation,
  DEFAULT_POWER_PARAMS,
  estimateTime,
  powerForSpeed,
  powerFromRecord,
  recordGain,
  speedForPower,
  WIND_HEIGHT_FACTOR,
  windHeightFactor,
  type ModelWind,
} from '../../src/core/power-model.ts';
import { polylineLegs } from '../../src/core/segment-wind.ts';

const kmh = (ms: number): number => ms * 3.6;
const still: ModelWind = { effectiveTailwindKmh: 0 };
const tail = (kmhAlong: number): ModelWind => ({ effectiveTailwindKmh: kmhAlong });
const bearing = fc.double({ min: 0, max: 360, noNaN: true });
const legs = fc.array(
  fc.record({ bearingDeg: bearing, weight: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  {
    minLength: 1,
    maxLength: 8,
  },
);

describe('defaults', () => {
  it('scales the 10 m wind to 1.5 m with the log profile over open country', () => {
    // ln(1.5 / 0.03) / ln(10 / 0.03) = 3.9120 / 5.8091 = 0.6734
    expect(WIND_HEIGHT_FACTOR).toBeCloseTo(0.6734, 4);
    expect(DEFAULT_POWER_PARAMS.windHeightFactor).toBe(WIND_HEIGHT_FACTOR);
    expect(windHeightFactor(10)).toBeCloseTo(1, 12);
    expect(windHeightFactor(1)).toBeCloseTo(0.6036, 4);
    expect(() => windHeightFactor(0.01)).toThrow(RangeError);
  });

  it('thins the air with elevation as the standard atmosphere does', () => {
    expect(airDensityAtElevation(0)).toBeCloseTo(1.225, 12);
    // ISA table: 1.0065 kg/m³ at 2000 m.
    expect(airDensityAtElevation(2000)).toBeCloseTo(1.0065, 3);
    expect(airDensityAtElevation(1850)).toBeLessThan(airDensityAtElevation(1000));
    expect(() => airDensityAtElevation(Number.NaN)).toThrow(RangeError);
  });
});

describe('power and speed', () => {
  it('rides 250 W on the flat at about 36.4 km/h with the defaults', () => {
    // Hand check: ηP = ½ρCdA·v³ + Crr·m·g·v → 244.0 = 0.196·v³ + 4.1678·v;
    // v = 10.0994 m/s gives 0.196·1030.1 + 42.09 = 244.0, i.e. 36.36 km/h.
    const v = speedForPower(250, 0, 0);
    expect(kmh(v)).toBeCloseTo(36.36, 2);
    expect(kmh(v)).toBeGreaterThan(36);
    expect(kmh(v)).toBeLessThan(38);
  });

  it('climbs 8% at 250 W at about 12.1 km/h for 85 kg (14.3 km/h for 70 kg)', () => {
    // Hand check: m·g·(Crr·cosθ + sinθ) = 833.57·0.08473 = 70.63 N; at v = 3.3504 m/s
    // 0.196·v³ + 70.63·v = 7.37 + 236.63 = 244.0 W at the wheel.
    expect(kmh(speedForPower(250, 0, 0.08))).toBeCloseTo(12.06, 2);
    expect(kmh(speedForPower(250, 0, 0.08, { massKg: 70 }))).toBeCloseTo(14.34, 2);
  });

  it('inverts: speedForPower(powerForSpeed(v)) = v wherever the rider pedals', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 25, noNaN: true }),
        fc.double({ min: -12, max: 12, noNaN: true }),
        fc.double({ min: -0.15, max: 0.2, noNaN: true }),
        (v, headwindMs, gradeFraction) => {
          const power = powerForSpeed({ groundSpeedMs: v, headwindMs, gradeFraction });
          fc.pre(power > 0);
          expect(Math.abs(speedForPower(power, headwindMs, gradeFraction) - v)).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('lets a tailwind faster than the rider push, so drag turns negative', () => {
    const rolling = powerForSpeed({
      groundSpeedMs: 5,
      headwindMs: 0,
      gradeFraction: 0,
      params: { cdaM2: 1e-9 },
    });
    expect(powerForSpeed({ groundSpeedMs: 5, headwindMs: -10, gradeFraction: 0 })).toBeLessThan(rolling);
    // With no pedalling a strong tailwind still rolls the bike, and so does a descent.
    expect(speedForPower(0, -10, 0)).toBeGreaterThan(0);
    expect(speedForPower(0, 0, 0)).toBe(0);
    expect(kmh(speedForPower(0, 0, -0.05))).toBeGreaterThan(40);
  });
});

describe('the record re-ridden in the wind', () => {
  const alpe = { distanceM: 13_800, recordS: 3600, averageGradePct: 8.1 };

  it('returns the record in still air, per leg or with one mean wind', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 200, max: 100_000, noNaN: true }),
        fc.double({ min: 2, max: 20, noNaN: true }),
        fc.double({ min: -8, max: 15, noNaN: true }),
        legs,
        (distanceM, speedMs, averageGradePct, someLegs) => {
          const record = { distanceM, recordS: distanceM / speedMs, averageGradePct };
          const braking =
            powerForSpeed({ groundSpeedMs: speedMs, headwindMs: 0, gradeFraction: averageGradePct / 100 }) <=
            0;
          if (braking) {
            expect(() => powerFromRecord(record)).toThrow(/no faster than freewheeling/);
            return;
          }
          const powerW = powerFromRecord(record);
          for (const wind of [still, { legs: someLegs, windSpeedKmh: 0, windDirectionDeg: 90 }]) {
            expect(Math.abs(estimateTime({ ...record, wind, powerW }) - record.recordS)).toBeLessThan(0.01);
          }
        },
      ),
    );
  });

  it('is never slower with more tailwind, and a headwind is slower than the record', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -60, max: 60, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.double({ min: -5, max: 15, noNaN: true }),
        (windKmh, extraKmh, averageGradePct) => {
          const base = { distanceM: 5000, averageGradePct, powerW: 250 };
          const slower = estimateTime({ ...base, wind: tail(windKmh) });
          expect(estimateTime({ ...base, wind: tail(windKmh + extraKmh) })).toBeLessThanOrEqual(slower);
          if (windKmh < -1) expect(slower).toBeGreaterThan(estimateTime({ ...base, wind: still }));
        },
      ),
    );
  });

  it('gains a larger share of the record on the flat than on a climb for the same wind', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 150, max: 400, noNaN: true }),
        fc.double({ min: 5, max: 40, noNaN: true }),
        fc.double({ min: 6, max: 12, noNaN: true }),
        (powerW, windKmh, climbPct) => {
          const share = (averageGradePct: number): number => {
            const base = { distanceM: 10_000, averageGradePct, powerW };
            const record = estimateTime({ ...base, wind: still });
            return (record - estimateTime({ ...base, wind: tail(windKmh) })) / record;
          };
          expect(share(0)).toBeGreaterThan(share(climbPct));
        },
      ),
    );
  });

  it('takes the wind per leg: an out-and-back in a steady wind is slower than still air', () => {
    const outAndBack = polylineLegs([
      { lat: 45, lon: 6 },
      { lat: 45.05, lon: 6 },
      { lat: 45, lon: 6 },
    ]);
    const base = { distanceM: 11_000, averageGradePct: 0, powerW: 250 };
    const windy = estimateTime({
      ...base,
      wind: { legs: outAndBack, windSpeedKmh: 20, windDirectionDeg: 180 },
    });
    expect(windy).toBeGreaterThan(estimateTime({ ...base, wind: still }) + 10);
    // A single straight leg is the same as giving its along-track wind directly.
    const north = polylineLegs([
      { lat: 45, lon: 6 },
      { lat: 45.05, lon: 6 },
    ]);
    expect(
      estimateTime({ ...base, wind: { legs: north, windSpeedKmh: 20, windDirectionDeg: 180 } }),
    ).toBeCloseTo(estimateTime({ ...base, wind: tail(20) }), 6);
  });

  it("puts a 60 min Alpe d'Huez at about 57:41 with a 20 km/h tailwind", () => {
    // Backed-out power: v = 3.833 m/s, (0.196·v² + 833.57·(0.005·cosθ + sinθ))·v / 0.976 = 292 W.
    const gain = recordGain({ ...alpe, wind: tail(20) });
    expect(gain.powerW).toBe(292);
    expect(gain.estimatedS).toBeCloseTo(3461, -1);
    expect(gain.estimatedS + gain.gainS).toBeCloseTo(gain.recordS, 9);
    expect(recordGain({ ...alpe, wind: tail(-20) }).gainS).toBeLessThan(-300);
  });
});

describe('invalid input', () => {
  it.each([
    ['a zero record', { recordS: 0 }, /recordS must be > 0/],
    ['a negative record', { recordS: -5 }, /recordS must be > 0/],
    ['a NaN record', { recordS: Number.NaN }, /recordS must be a finite number/],
    ['a zero distance', { distanceM: 0 }, /distanceM must be > 0/],
    ['a NaN grade', { averageGradePct: Number.NaN }, /averageGradePct must be a finite number/],
    ['a zero CdA', { params: { cdaM2: 0 } }, /cdaM2 must be > 0/],
    ['an efficiency above 1', { params: { drivetrainEfficiency: 1.2 } }, /at most 1/],
  ])('rejects %s with a RangeError', (_name, change, message) => {
    const input = { distanceM: 1000, recordS: 120, averageGradePct: 3, wind: still, ...change };
    expect(() => recordGain(input)).toThrow(RangeError);
    expect(() => recordGain(input)).toThrow(message);
  });

  it('rejects bad power, wind and legs', () => {
    const base = { distanceM: 1000, averageGradePct: 3, powerW: 200, wind: still };
    expect(() => estimateTime({ ...base, powerW: 0 })).toThrow(/powerW must be > 0/);
    expect(() => estimateTime({ ...base, wind: tail(Number.NaN) })).toThrow(RangeError);
    expect(() =>
      estimateTime({ ...base, wind: { legs: [], windSpeedKmh: 10, windDirectionDeg: 0 } }),
    ).toThrow(/legs must be non-empty/);
    expect(() => speedForPower(-1, 0, 0)).toThrow(/powerW must be >= 0/);
    expect(() => powerForSpeed({ groundSpeedMs: Number.NaN, headwindMs: 0, gradeFraction: 0 })).toThrow(
      RangeError,
    );
  });
});
