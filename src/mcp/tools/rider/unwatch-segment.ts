import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { unwatchForRider } from '../../../service/watchlist.ts';
import { UnwatchSegmentInputSchema, UnwatchSegmentOutputSchema } from '../../schemas/rider.ts';
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
    const outcome = await unwatchForRider(session.store.db, session.rider.id, session.segments, segment_id);
    // An own segment is always watched, so it never drops out of sight while it counts against the allowance.
    if (!outcome.ok) {
      throw new ToolError(
        `${segment_id} is one of the rider's own segments, which stay watched while they exist. ` +
          'To stop watching it, remove it with remove_my_segment (confirm with the rider first).',
      );
    }
    const { removed, watchlistSize } = outcome;
    const data = { segment_id, removed, watchlist_size: watchlistSize };
    const summary = removed
      ? `Stopped watching ${segment_id}; its record and alert threshold are removed. ${watchlistSize} segment(s) still watched.`
      : `${segment_id} was not in the watchlist; nothing changed. ${watchlistSize} segment(s) watched (get_my_watchlist lists them).`;
    return { data, summary };
  },
};
