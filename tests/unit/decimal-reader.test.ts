import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/core/parameters.ts';
import { readDecimal } from '../../src/rest/decimal-reader.ts';

/** Text around a slice, so the reader is also held to its bounds. */
const framed = (inner: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.string({ maxLength: 4 }), inner, fc.constantFrom('', '&x=1', '9', 'e5', '.', '='))
    .map(([before, text, after]) => ({
      whole: before + text + after,
      start: before.length,
      end: before.length + text.length,
    }));

const same = ({ whole, start, end }: { whole: string; start: number; end: number }) => {
  expect(Object.is(readDecimal(whole, start, end), parseDecimal(whole.slice(start, end)))).toBe(true);
};

describe('readDecimal', () => {
  it('reads what parseDecimal reads, on text made of a number’s characters', () => {
    const chars = fc.constantFrom(...'0123456789.-+eE x'.split(''));
    fc.assert(fc.property(framed(fc.string({ unit: chars, maxLength: 24 })), same), { numRuns: 20_000 });
  });

  it('reads what parseDecimal reads, on every double as JavaScript and clients write it', () => {
    const written = fc.oneof(
      fc.double().map(String),
      fc.double({ min: -400, max: 400, noNaN: true }).map((value) => value.toFixed(3)),
      fc
        .tuple(fc.integer({ min: -400, max: 400 }), fc.nat({ max: 10 }))
        .map(([value, places]) => value.toFixed(places)),
      fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
    );
    fc.assert(fc.property(framed(written), same), { numRuns: 20_000 });
  });

  it('keeps the sign of zero and refuses what is not a number', () => {
    expect(Object.is(readDecimal('-0', 0, 2), -0)).toBe(true);
    expect(Object.is(readDecimal('-0.000', 0, 6), -0)).toBe(true);
    for (const text of ['', '-', '.', '-.', '1e', '1e+', '--1', '0x10', 'Infinity', '1e999', ' 1', '1 '])
      expect(readDecimal(text, 0, text.length)).toBeUndefined();
  });
});
