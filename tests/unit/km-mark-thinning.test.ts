import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScreenBox } from '../../src/components/map/badge-spread.ts';
import { kmMarksToShow } from '../../src/components/map/km-mark-thinning.ts';

const box = fc.record({
  x: fc.integer({ min: 0, max: 400 }),
  y: fc.integer({ min: 0, max: 400 }),
  width: fc.integer({ min: 20, max: 50 }),
  height: fc.integer({ min: 12, max: 20 }),
});

const touch = (a: ScreenBox, b: ScreenBox): boolean =>
  Math.abs(a.x - b.x) < (a.width + b.width) / 2 && Math.abs(a.y - b.y) < (a.height + b.height) / 2;

describe('km marks shown at a zoom', () => {
  it('no two shown labels touch, the first is always shown, and a hidden one touches a shown one', () => {
    fc.assert(
      fc.property(fc.array(box, { minLength: 1, maxLength: 30 }), (boxes) => {
        const show = kmMarksToShow(boxes);
        const shown = boxes.filter((_, i) => show[i]);
        expect(show[0]).toBe(true);
        for (const [i, a] of shown.entries())
          for (const b of shown.slice(i + 1)) expect(touch(a, b)).toBe(false);
        for (const [i, hidden] of boxes.entries())
          if (!show[i])
            expect(
              shown.some(
                (other) =>
                  !(
                    Math.abs(hidden.x - other.x) >= (hidden.width + other.width) / 2 + 4 ||
                    Math.abs(hidden.y - other.y) >= (hidden.height + other.height) / 2 + 4
                  ),
              ),
            ).toBe(true);
      }),
    );
  });

  it('"4 km" on top of "2 km" is hidden; far apart both show', () => {
    const two = { x: 100, y: 100, width: 36, height: 17 };
    expect(kmMarksToShow([two, { ...two, x: 120, y: 104 }])).toEqual([true, false]);
    expect(kmMarksToShow([two, { ...two, x: 200 }])).toEqual([true, true]);
  });
});
