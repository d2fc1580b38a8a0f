import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadBadges, type ScreenBox } from '../../src/components/map/badge-spread.ts';

const box = fc.record({
  x: fc.integer({ min: 0, max: 400 }),
  y: fc.integer({ min: 0, max: 400 }),
  width: fc.integer({ min: 16, max: 60 }),
  height: fc.integer({ min: 16, max: 28 }),
});

const moved = (boxes: readonly ScreenBox[], shifts: readonly number[]) =>
  boxes.map((b, index) => ({ ...b, x: b.x + (shifts[index] ?? 0) }));

const touch = (a: ScreenBox, b: ScreenBox) =>
  Math.abs(a.x - b.x) < (a.width + b.width) / 2 && Math.abs(a.y - b.y) < (a.height + b.height) / 2;

describe('spreadBadges', () => {
  it('moves "7" off "10" when two segments start side by side, and leaves the first badge alone', () => {
    const ten = { x: 190, y: 268, width: 30, height: 24 };
    const seven = { x: 203, y: 266, width: 24, height: 24 };
    const [first, second] = spreadBadges([ten, seven]);
    expect(first).toBe(0);
    expect(second).toBeGreaterThan(0);
    expect(touch(ten, { ...seven, x: seven.x + (second ?? 0) })).toBe(false);
  });

  it('leaves badges that do not touch where they are', () => {
    expect(
      spreadBadges([
        { x: 0, y: 0, width: 24, height: 24 },
        { x: 100, y: 0, width: 24, height: 24 },
      ]),
    ).toEqual([0, 0]);
  });

  it('never moves a badge left or past the bound, and no two moved badges touch', () => {
    fc.assert(
      fc.property(fc.array(box, { maxLength: 12 }), (boxes) => {
        const shifts = spreadBadges(boxes, 2000);
        expect(shifts).toHaveLength(boxes.length);
        expect(shifts.every((dx) => dx >= 0 && dx <= 2000)).toBe(true);
        if (boxes.length > 0) expect(shifts[0]).toBe(0);
        const placed = moved(boxes, shifts);
        placed.forEach((a, i) => placed.slice(i + 1).forEach((b) => expect(touch(a, b)).toBe(false)));
      }),
    );
  });
});
