import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { coverOf, successorOf, type SegmentLine } from '../../src/core/discovery/segment-successor.ts';

/** A line due east from `lon`, `km` long, at 45° N (about 0.0127° of longitude per km). */
const east = (lon: number, km: number): LatLon[] =>
  Array.from({ length: Math.round(km * 10) + 1 }, (_, k) => ({ lat: 45, lon: lon + k * 0.00127 }));
const line = (id: string, polyline: LatLon[], kind: 'climb' | 'stretch' = 'climb'): SegmentLine => ({
  id,
  kind,
  polyline,
});

describe('the successor of a segment whose id is gone', () => {
  it('is the new climb that runs along the old one, the same way: a fragment passes to the whole climb', () => {
    const fragment = line('old-fragment', east(7.01, 2));
    const whole = line('whole', east(7, 10));
    const elsewhere = line('elsewhere', east(7.3, 5));
    expect(successorOf(fragment, [elsewhere, whole])?.id).toBe('whole');
    expect(coverOf(fragment, whole)).toBeGreaterThan(0.95);
  });

  it('is none for the same road ridden the other way, for another kind, or for a segment that covers too little', () => {
    const old = line('old', east(7, 4));
    expect(successorOf(old, [line('back', east(7, 4).toReversed())])).toBeNull();
    expect(successorOf(old, [line('stretch', east(7, 4), 'stretch')])).toBeNull();
    expect(successorOf(old, [line('part', east(7, 2))])).toBeNull();
  });

  it('prefers the one covering most, then the one nearest in length', () => {
    const old = line('old', east(7, 3));
    const exact = line('exact', east(7, 3));
    const longer = line('longer', east(6.99, 6));
    expect(successorOf(old, [longer, exact])?.id).toBe('exact');
  });
});
