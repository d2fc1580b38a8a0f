import { FREE_MONTHLY_CALLS } from '../../../core/rider-rules.ts';
import { readWatchlist, type AlertRecord } from '../../../service/watchlist.ts';
import { closedOwnSegments } from '../../../service/own-segments.ts';
import type { Segment } from '../../../data/segments/types.ts';
import { localIso } from '../../../core/local-time.ts';
import { isoTime } from '../../../core/time.ts';
import { segmentTimeZone } from '../../../data/time-zone/zone-at.ts';
import {
  GetMyWatchlistInputSchema,
  GetMyWatchlistOutputSchema,
  type GetMyWatchlistOutput,
} from '../../schemas/rider.ts';
import type { ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { metered } from './metered.ts';
import { zoneOfSegments } from './rider-zone.ts';
import { accessOf, requireRider } from './rider-context.ts';
import { summarizeWatchlist } from './rider-summaries.ts';
import { watchEntryOut } from './watch-entry.ts';

/** Alerts shown per answer, newest first: enough to see what fired lately, small enough to read aloud. */
export const RECENT_ALERTS_SHOWN = 10;

function alertOut(alert: AlertRecord, segments: ReadonlyMap<string, Segment>) {
  const segment = segments.get(alert.segmentId);
  const timeZone = segment === undefined ? 'UTC' : segmentTimeZone(segment);
  return {
    segment_id: alert.segmentId,
    segment_name: segment?.name ?? null,
    window_start: isoTime(alert.windowStart),
    window_end: isoTime(alert.windowEnd),
    time_zone: timeZone,
    window_start_local: localIso(alert.windowStart, timeZone),
    window_end_local: localIso(alert.windowEnd, timeZone),
    peak_tailwind_kmh: alert.peakTailwindKmh,
    recorded_at: isoTime(alert.createdAt),
    delivered_at: alert.deliveredAt === null ? null : isoTime(alert.deliveredAt),
  };
}

/** Rider tool: what the rider watches, with their records, alert settings, recent alerts and access. */
export const getMyWatchlist: ToolDefinition<
  typeof GetMyWatchlistInputSchema,
  typeof GetMyWatchlistOutputSchema
> = {
  name: 'get_my_watchlist',
  title: 'My watched segments',
  description:
    "The rider's watched segments with record and alert settings, recent alerts and plan. " +
    `Free: ${FREE_MONTHLY_CALLS} calls a month with get_my_tailwind_windows: reuse an answer.`,
  inputSchema: GetMyWatchlistInputSchema,
  outputSchema: GetMyWatchlistOutputSchema,
  annotations: {
    readOnlyHint: true,
    // Each call spends one of a free rider's monthly calls: repeating it is not free.
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(_input, context) {
    const session = await requireRider(context);
    const { db } = session.store;
    const riderId = session.rider.id;
    return metered(session, context.urls, async () => {
      const [{ entries, alerts, segments }, closed] = await Promise.all([
        readWatchlist(db, riderId, session.segments, RECENT_ALERTS_SHOWN),
        closedOwnSegments(db, riderId),
      ]);
      const data = {
        access: accessOf(session),
        watchlist: entries.map((entry) =>
          watchEntryOut(entry, segments.get(entry.segmentId), closed.get(entry.segmentId)),
        ),
        recent_alerts: alerts.map((alert) => alertOut(alert, segments)),
        locked: session.proAccess ? [] : [riderLockedFeature('tailwind_alerts', session, context.urls)],
      } satisfies Omit<GetMyWatchlistOutput, 'usage'>;
      // The rider's zone, for the trial's end and the monthly reset: where their watched segments are.
      const timeZone = zoneOfSegments(entries.flatMap((entry) => segments.get(entry.segmentId) ?? []));
      return { data, summary: summarizeWatchlist(data, timeZone), timeZone };
    });
  },
};
