import { FREE_MONTHLY_CALLS } from '../../../core/rider-rules.ts';
import { listRecentAlerts, type AlertRecord } from '../../../store/repositories/alerts.ts';
import { listWatchlist } from '../../../store/repositories/watchlist.ts';
import type { Segment } from '../../../data/segments/types.ts';
import { localIso } from '../../../core/local-time.ts';
import { isoTime } from '../../../core/time.ts';
import { segmentTimeZone } from '../../../data/time-zone/segment-zone.ts';
import {
  GetMyWatchlistInputSchema,
  GetMyWatchlistOutputSchema,
  type GetMyWatchlistOutput,
} from '../../schemas/rider.ts';
import type { ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { metered } from './metered.ts';
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
    "Returns the signed-in rider's watched segments, catalog ones and their own (catalog_status " +
    '"own_segment"): facts, personal record in seconds, alert ' +
    'settings: alerts_on and threshold_kmh), their most recent tailwind alerts, and their access: plan, ' +
    'pro_access, in_trial and trial_ends_at, and for a paid plan paid_plan with renews_at (next charge) or ' +
    'pro_until (when a cancelled or unpaid plan ends). For the wind on these segments call get_my_tailwind_windows. ' +
    `Free riders: ${FREE_MONTHLY_CALLS} calls per calendar month (UTC) to this tool and ` +
    'get_my_tailwind_windows together; every answer carries usage, and past the limit the answer holds ' +
    'only locked and usage, so reuse an earlier answer instead of calling again.',
  inputSchema: GetMyWatchlistInputSchema,
  outputSchema: GetMyWatchlistOutputSchema,
  annotations: {
    title: 'My watched segments',
    readOnlyHint: true,
    destructiveHint: false,
    // Each call spends one of a free rider's monthly calls: repeating it is not free.
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(_input, context) {
    const session = await requireRider(context);
    const { db } = session.store;
    const riderId = session.rider.id;
    return metered(session, context.urls, async () => {
      const [entries, alerts] = await Promise.all([
        listWatchlist(db, riderId),
        listRecentAlerts(db, riderId, { limit: RECENT_ALERTS_SHOWN }),
      ]);
      const segments = await session.segments.getMany([
        ...entries.map((entry) => entry.segmentId),
        ...alerts.map((alert) => alert.segmentId),
      ]);
      const data = {
        access: accessOf(session),
        watchlist: entries.map((entry) => watchEntryOut(entry, segments.get(entry.segmentId))),
        recent_alerts: alerts.map((alert) => alertOut(alert, segments)),
        locked: session.proAccess ? [] : [riderLockedFeature('tailwind_alerts', session, context.urls)],
      } satisfies Omit<GetMyWatchlistOutput, 'usage'>;
      return { data, summary: summarizeWatchlist(data) };
    });
  },
};
