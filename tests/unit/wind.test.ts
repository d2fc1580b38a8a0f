import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windComponents } from '../../src/core/wind.ts';

const speed = fc.double({ min: 0, max: 300, noNaN: true });
const angle = fc.double({ min: 0, max: 360, noNaN: true });

describe('windComponents', () => {
  it('gives the spec worked example: 20 km/h from 250° on a 80° segment', () => {
    expect(windComponents({ speedKmh: 20, directionDeg: 250, bearingDeg: 80 })).toEqual({
      signedKmh: 19.7,
      crosswindKmh: 3.5,
      effect: 'tailwind',
    });
  });

  it('classifies headwind, crosswind and calm', () => {
    expect(windComponents({ speedKmh: 20, directionDeg: 80, bearingDeg: 80 })).toEqual({
      signedKmh: -20,
      crosswindKmh: 0,
      effect: 'headwind',
    });
    expect(windComponents({ speedKmh: 20, directionDeg: 170, bearingDeg: 80 }).effect).toBe('crosswind');
    expect(windComponents({ speedKmh: 0, directionDeg: 170, bearingDeg: 80 }).effect).toBe('calm');
  });

  it('keeps the along-track and across-track parts on the wind circle', () => {
    fc.assert(
      fc.property(speed, angle, angle, (speedKmh, directionDeg, bearingDeg) => {
        const { signedKmh, crosswindKmh } = windComponents({ speedKmh, directionDeg, bearingDeg });
        // Each part is off by at most 0.05 after rounding, so the norm by at most 0.05·√2.
        expect(Math.abs(Math.hypot(signedKmh, crosswindKmh) - speedKmh)).toBeLessThanOrEqual(0.0708);
      }),
    );
  });

  it('turns a tailwind into the same headwind when the wind turns round', () => {
    fc.assert(
      fc.property(speed, angle, angle, (speedKmh, directionDeg, bearingDeg) => {
        const there = windComponents({ speedKmh, directionDeg, bearingDeg });
        const back = windComponents({ speedKmh, directionDeg: directionDeg + 180, bearingDeg });
        expect(back.signedKmh).toBe(0 - there.signedKmh || 0);
        expect(back.crosswindKmh).toBe(there.crosswindKmh);
      }),
    );
  });

  it('reports an effect that agrees with the rounded figures', () => {
    fc.assert(
      fc.property(speed, angle, angle, (speedKmh, directionDeg, bearingDeg) => {
        const { signedKmh, crosswindKmh, effect } = windComponents({ speedKmh, directionDeg, bearingDeg });
        expect(crosswindKmh).toBeGreaterThanOrEqual(0);
        if (effect === 'calm') expect(speedKmh).toBeLessThan(0.05);
        else if (effect === 'crosswind') expect(Math.abs(signedKmh)).toBeLessThan(1);
        else expect(Math.sign(signedKmh)).toBe(effect === 'tailwind' ? 1 : -1);
        if (effect !== 'calm' && Math.abs(signedKmh) >= 1) expect(effect).not.toBe('crosswind');
      }),
    );
  });
});
