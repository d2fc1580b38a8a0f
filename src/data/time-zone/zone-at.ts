import tzLookup from '@photostructure/tz-lookup';
import type { LatLon } from '../../core/bearing.ts';
import { useZoneTable } from '../../core/local-time.ts';
import { startOf } from '../segments/segment-geometry.ts';
import type { Segment } from '../segments/types.ts';
import { loadZoneTable } from './zone-table-file.ts';

// Every zone the server reads a clock in comes from here, so this is where the clocks learn of the
// build-time zone table (src/core/zone-table.ts): read with the first clock, not now.
useZoneTable(loadZoneTable);

/**
 * The IANA time zone at a place, offline, from the time-zone boundaries
 * packed in `@photostructure/tz-lookup` (about 100 KB, no dependencies,
 * kept in step with timezone-boundary-builder): why this package and not
 * geo-tz or the others is in docs/decisions/0013-local-time-from-coordinates.md.
 * Over the open sea it answers the nautical zone (`Etc/GMT+5`…) or the
 * nearest coast's zone; a point it cannot place gets `UTC` rather than an
 * error, so a time is never lost for want of a zone.
 */
export function timeZoneAt(point: LatLon): string {
  const lon = ((((point.lon + 180) % 360) + 360) % 360) - 180;
  try {
    return tzLookup(point.lat, lon);
  } catch {
    return 'UTC';
  }
}

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
