import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smallestSorted } from '../../src/core/smallest.ts';

interface Item {
  readonly key: number;
  /** Where the item was in the input: tells a stable order from another. */
  readonly at: number;
}

const byKey = (a: Item, b: Item): number => a.key - b.key;

describe('smallestSorted', () => {
  it('gives exactly what a stable sort and slice give, ties included', () => {
    fc.assert(
      fc.property(
        // Few distinct keys, so ties are common.
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 60 }),
        fc.integer({ min: -2, max: 70 }),
        (keys, k) => {
          const items = keys.map((key, at) => ({ key, at }));
          const expected = k >= 1 ? [...items].sort(byKey).slice(0, k) : [];
          expect(smallestSorted(items, k, byKey)).toEqual(expected);
        },
      ),
    );
  });

  it('takes a fractional limit as its floor and reads any iterable once', () => {
    function* keys() {
      yield* [5, 1, 4, 1, 3].map((key, at) => ({ key, at }));
    }
    expect(smallestSorted(keys(), 2.9, byKey)).toEqual([
      { key: 1, at: 1 },
      { key: 1, at: 3 },
    ]);
    expect(smallestSorted(keys(), Number.NaN, byKey)).toEqual([]);
  });
});
