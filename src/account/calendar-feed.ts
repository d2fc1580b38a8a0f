/**
 * The rider's private calendar feed (`GET /api/rider/calendar/<secret>.ics`):
 * the tailwind windows the alert job recorded on the rider's watched
 * segments, from a week back on, as an iCalendar (RFC 5545) a calendar app
 * subscribes to. The secret in the address is the only key (calendar apps
 * send no cookies), so it is long, random, kept only hashed, and renewed or
 * turned off from the settings page.
 *
 * Each window is an event in its segment's own time zone (`DTSTART;TZID=…`
 * with the zone's `VTIMEZONE`, from timezones-ical-library's IANA data), so
 * a rider travelling to ride it sees it at the local time it happens. Its
 * UID is the alert's id, fixed for the window, so a refreshed feed updates
 * the event instead of adding a copy. Written with ical-generator (line
 * folding, escaping, CRLF) rather than by hand; the local wall-clock times
 * come from `@date-fns/tz`'s `TZDate`, the zoned date ical-generator reads
 * (a plain `Date` would be written in the server's own zone). Events are
 * free time (`TRANSP:TRANSPARENT`): a possibility to ride, not an appointment.
 */
import { TZDate } from '@date-fns/tz';
import ical, { ICalEventTransparency } from 'ical-generator';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { Kysely } from 'kysely';
import { localSpan } from '../core/local-time.ts';
import { isOwnSegmentId } from '../core/rider-rules.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { segmentTimeZone } from '../data/time-zone/zone-at.ts';
import { riderSegmentLookup } from '../rider/segment-lookup.ts';
import { recentAlerts } from '../service/alert-channels.ts';
import type { Database } from '../store/schema.ts';

/** How far back the feed reaches: last week's windows stay visible, older ones drop off. */
const FEED_PAST_S = 7 * 24 * 3600;
/** Windows in one feed at most. */
const FEED_MAX = 200;

/** The zone's VTIMEZONE block, or null for a zone the library does not know (the event is then in UTC). */
function vtimezone(zone: string): string | null {
  const block = tzlib_get_ical_block(zone);
  return Array.isArray(block) && typeof block[0] === 'string' && block[0].startsWith('BEGIN:VTIMEZONE')
    ? block[0]
    : null;
}

export async function calendarFeed(
  db: Kysely<Database>,
  catalog: Pick<SegmentCatalog, 'get'>,
  riderId: string,
  origin: string,
  nowS: number,
): Promise<string> {
  const alerts = (
    await recentAlerts(db, riderId, { limit: FEED_MAX, since: nowS - FEED_PAST_S - 4 * 24 * 3600 })
  )
    .filter((alert) => alert.windowEnd >= nowS - FEED_PAST_S)
    .sort((a, b) => a.windowStart - b.windowStart);
  const segments = await riderSegmentLookup(catalog, db, riderId).getMany([
    ...new Set(alerts.map((a) => a.segmentId)),
  ]);
  const host = new URL(origin).hostname || 'wind-on-segment';
  const calendar = ical({
    name: 'Tailwind windows (wind-on-segment)',
    description: 'The tailwind windows of the segments you watch with alerts on.',
    prodId: { company: 'wind-on-segment', product: 'tailwind-windows', language: 'EN' },
    timezone: { name: null, generator: vtimezone },
    ttl: 60 * 60,
  });
  for (const alert of alerts) {
    const segment = segments.get(alert.segmentId);
    const zone = segment ? segmentTimeZone(segment) : 'UTC';
    const name = segment?.name ?? alert.segmentId;
    const link = isOwnSegmentId(alert.segmentId)
      ? `${origin}/settings`
      : `${origin}/segments/${encodeURIComponent(alert.segmentId)}`;
    const chance =
      alert.chancePct == null ? '' : ` ${alert.chancePct}% of forecast runs reach your threshold.`;
    const eventZone = zone === 'UTC' || vtimezone(zone) === null ? 'UTC' : zone;
    calendar.createEvent({
      id: `alert-${alert.id}@${host}`,
      start: new TZDate(alert.windowStart * 1000, eventZone),
      end: new TZDate(alert.windowEnd * 1000, eventZone),
      timezone: eventZone,
      stamp: new Date(alert.createdAt * 1000),
      lastModified: new Date(alert.createdAt * 1000),
      summary: `Tailwind: ${name}`,
      description:
        `${localSpan(alert.windowStart, alert.windowEnd, zone)}: up to ${alert.peakTailwindKmh.toFixed(1)} km/h of tailwind.` +
        `${chance}\n${link}`,
      url: link,
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  return calendar.toString();
}
