import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { listWatchlist, unwatchSegment as storeUnwatch } from '../../../store/repositories/watchlist.ts';
import { UnwatchSegmentInputSchema, UnwatchSegmentOutputSchema } from '../../schemas/rider.ts';
import { isOwnSegmentId } from '../../../core/rider-rules.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { requireRider } from './rider-context.ts';

/** Rider tool: stop watching a segment, dropping its record and alert settings. */
export const unwatchSegment: ToolDefinition<
  typeof UnwatchSegmentInputSchema,
  typeof UnwatchSegmentOutputSchema
> = {
  name: 'unwatch_segment',
  title: 'Stop watching a segment',
  description:
    'Stops watching a segment, dropping its record and threshold (confirm first). Recorded alerts stay.',
  inputSchema: UnwatchSegmentInputSchema,
  outputSchema: UnwatchSegmentOutputSchema,
  annotations: {
    readOnlyHint: false,
    // It deletes what the rider entered (record time, threshold); re-watching does not bring it back.
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ segment_id }, context) {
    const session = await requireRider(context, SCOPE_WRITE);
    const { db } = session.store;
    // An own segment is always watched, so it never drops out of sight while it counts against the allowance.
    if (isOwnSegmentId(segment_id) && (await session.segments.get(segment_id))) {
      throw new ToolError(
        `${segment_id} is one of the rider's own segments, which stay watched while they exist. ` +
          'To stop watching it, remove it with remove_my_segment (confirm with the rider first).',
      );
    }
    const removed = await storeUnwatch(db, session.rider.id, segment_id);
    const watchlistSize = (await listWatchlist(db, session.rider.id)).length;
    const data = { segment_id, removed, watchlist_size: watchlistSize };
    const summary = removed
      ? `Stopped watching ${segment_id}; its record and alert threshold are removed. ${watchlistSize} segment(s) still watched.`
      : `${segment_id} was not in the watchlist; nothing changed. ${watchlistSize} segment(s) watched (get_my_watchlist lists them).`;
    return { data, summary };
  },
};
