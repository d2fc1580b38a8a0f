import { describe, expect, it } from 'vitest';
import { COMPASS_POINTS_16, compassPoint16 } from '../../src/core/compass-16.ts';
import { COMPASS_POINTS, compassPoint } from '../../src/core/compass.ts';

describe('compassPoint', () => {
  it('names each point at its centre', () => {
    COMPASS_POINTS.forEach((point, index) => expect(compassPoint(index * 45)).toBe(point));
  });

  it('puts a boundary in the next sector clockwise', () => {
    expect(compassPoint(22.49)).toBe('N');
    expect(compassPoint(22.5)).toBe('NE');
    expect(compassPoint(67.5)).toBe('E');
    expect(compassPoint(337.49)).toBe('NW');
    expect(compassPoint(337.5)).toBe('N');
    expect(compassPoint(359.99)).toBe('N');
  });

  it('wraps angles outside [0, 360)', () => {
    expect(compassPoint(360)).toBe('N');
    expect(compassPoint(-90)).toBe('W');
  });
});

describe('compassPoint16', () => {
  it('gives the route tables’ sixteen directions sixteen different names', () => {
    const names = Array.from({ length: 16 }, (_, index) => compassPoint16(index * 22.5));
    expect(names).toEqual([...COMPASS_POINTS_16]);
    expect(new Set(names).size).toBe(16);
    // 22.5° and 45° shared the eight-point name NE.
    expect([compassPoint16(22.5), compassPoint16(45)]).toEqual(['NNE', 'NE']);
    expect([compassPoint(22.5), compassPoint(45)]).toEqual(['NE', 'NE']);
  });

  it('agrees with the eight-point name on the eight main points', () => {
    COMPASS_POINTS.forEach((point, index) => expect(compassPoint16(index * 45)).toBe(point));
  });

  it('puts a boundary in the next sector clockwise, and wraps', () => {
    expect(compassPoint16(11.249)).toBe('N');
    expect(compassPoint16(11.25)).toBe('NNE');
    expect(compassPoint16(348.75)).toBe('N');
    expect(compassPoint16(348.74)).toBe('NNW');
    expect(compassPoint16(-22.5)).toBe('NNW');
    expect(compassPoint16(382.5)).toBe('NNE');
  });
});
