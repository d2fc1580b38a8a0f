import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundHalfAway } from '../../src/core/round.ts';

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });

describe('roundHalfAway', () => {
  it('rounds halves away from zero on both sides', () => {
    expect(roundHalfAway(0.25, 1)).toBe(0.3);
    expect(roundHalfAway(-0.25, 1)).toBe(-0.3);
    expect(roundHalfAway(19.696, 1)).toBe(19.7);
    expect(roundHalfAway(359.995, 2)).toBe(360);
  });

  it('never returns -0', () => {
    expect(Object.is(roundHalfAway(-0.04, 1), 0)).toBe(true);
    expect(Object.is(roundHalfAway(-0, 2), 0)).toBe(true);
  });

  it('is symmetric: the mirrored value has the mirrored result', () => {
    fc.assert(
      fc.property(finite, fc.integer({ min: 0, max: 3 }), (value, decimals) => {
        expect(roundHalfAway(-value, decimals)).toBe(0 - roundHalfAway(value, decimals) || 0);
      }),
    );
  });

  it('stays within half a unit of the input', () => {
    fc.assert(
      fc.property(finite, fc.integer({ min: 0, max: 3 }), (value, decimals) => {
        const unit = 10 ** -decimals;
        expect(Math.abs(roundHalfAway(value, decimals) - value)).toBeLessThanOrEqual(unit / 2 + 1e-9);
      }),
    );
  });
});
