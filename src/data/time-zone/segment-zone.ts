import { startOf } from '../segments/segment-geometry.ts';
import type { Segment } from '../segments/types.ts';
import { timeZoneAt } from './zone-at.ts';

/** Zones of segments already asked, by segment object: a segment never moves. */
const zones = new WeakMap<Segment, string>();

/** The time zone at a segment's start, where the rider reads the clock. */
export function segmentTimeZone(segment: Segment): string {
  let zone = zones.get(segment);
  if (zone === undefined) {
    zone = timeZoneAt(startOf(segment));
    zones.set(segment, zone);
  }
  return zone;
}
