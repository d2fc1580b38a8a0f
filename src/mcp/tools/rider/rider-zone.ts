/**
 * The rider's own time zone, where the store lets us know it: the zone most
 * of their watched segments lie in. Riders give no home and no zone, but
 * they watch the roads they ride, so that is where they read the clock. A
 * trial's end and the monthly reset are instants in UTC; said in the
 * rider's zone (with UTC beside it), "resets Tue 1 Dec 05:30 UTC+5:30" is
 * the moment the rider can act on, where "00:00 UTC" left them to convert.
 */
import { localDateTime } from '../../../core/local-time.ts';
import type { Segment } from '../../../data/segments/types.ts';
import { segmentTimeZone } from '../../../data/time-zone/zone-at.ts';
import { watchedSegments } from '../../../service/watchlist.ts';
import type { RiderSession } from './rider-context.ts';

/** The zone most of `segments` lie in, the earliest listed on a tie; undefined for none. */
export function zoneOfSegments(segments: Iterable<Segment>): string | undefined {
  const counts = new Map<string, number>();
  for (const segment of segments) {
    const zone = segmentTimeZone(segment);
    counts.set(zone, (counts.get(zone) ?? 0) + 1);
  }
  let best: string | undefined;
  for (const [zone, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = zone;
  return best;
}

/** The rider's zone from their watchlist (one read and one lookup); undefined when they watch nothing. */
export async function riderTimeZone(session: RiderSession): Promise<string | undefined> {
  const { entries, segments } = await watchedSegments(session.store.db, session.rider.id, session.segments);
  return zoneOfSegments(entries.flatMap((entry) => segments.get(entry.segmentId) ?? []));
}

/**
 * "Tue 1 Dec 05:30 UTC+5:30 (Tue 1 Dec 00:00 UTC)" in the rider's zone, or
 * "Tue 1 Dec 00:00 UTC" when the zone is unknown or is UTC at that instant.
 */
export function riderTime(unixS: number, timeZone: string | undefined): string {
  const utc = localDateTime(unixS, 'UTC');
  if (timeZone === undefined) return utc;
  const local = localDateTime(unixS, timeZone);
  return local === utc ? utc : `${local} (${utc})`;
}
