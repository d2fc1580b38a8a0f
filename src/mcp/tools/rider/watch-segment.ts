import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { ALERT_THRESHOLD_DEFAULT_KMH, WATCHLIST_MAX_SEGMENTS } from '../../../core/rider-rules.ts';
import { watchForRider } from '../../../service/watchlist.ts';
import { WatchSegmentInputSchema, WatchSegmentOutputSchema } from '../../schemas/rider.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { requireRider } from './rider-context.ts';
import { summarizeWatch } from './rider-summaries.ts';
import { watchOut } from './watch-entry.ts';

/** Re-exported for the callers that read it here; the rule lives in `src/core/rider-rules.ts`. */
export { WATCHLIST_MAX_SEGMENTS };

/** Rider tool: watch a segment with tailwind alerts on, optionally with a personal record. */
export const watchSegment: ToolDefinition<typeof WatchSegmentInputSchema, typeof WatchSegmentOutputSchema> = {
  name: 'watch_segment',
  title: 'Watch a segment',
  description:
    `Watches a segment (alerts at ${ALERT_THRESHOLD_DEFAULT_KMH} km/h; record_s enables record estimates). ` +
    `Again: keeps settings, replaces a given record. At most ${WATCHLIST_MAX_SEGMENTS}.`,
  inputSchema: WatchSegmentInputSchema,
  outputSchema: WatchSegmentOutputSchema,
  annotations: {
    readOnlyHint: false,
    // Adds a watch or updates the settings given; never removes a watch, an alert or a setting left out.
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ segment_id, record_s }, context) {
    const session = await requireRider(context, SCOPE_WRITE);
    const outcome = await watchForRider(
      session.store.db,
      session.rider.id,
      session.segments,
      segment_id,
      record_s === undefined ? {} : { recordS: record_s },
      session.nowS,
    );
    if (!outcome.ok && outcome.reason === 'unknown_segment') {
      throw new ToolError(
        `No segment has the id "${segment_id}", so it cannot be watched. Ids come from find_tailwind_segments: ` +
          'call it with a place or coordinates near the segment, then watch one of the ids it returns.',
      );
    }
    if (!outcome.ok) {
      throw new ToolError(
        `The watchlist is full (${outcome.max} segments). Remove one with unwatch_segment ` +
          '(get_my_watchlist lists them), then watch this one.',
      );
    }
    const data = {
      watched: watchOut(outcome.entry, outcome.segment),
      created: outcome.created,
      watchlist_size: outcome.watchlistSize,
      locked: session.proAccess ? [] : [riderLockedFeature('tailwind_alerts', session, context.urls)],
    };
    return { data, summary: summarizeWatch(data) };
  },
};
