import { describe, expect, it } from 'vitest';
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
