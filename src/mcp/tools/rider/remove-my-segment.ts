import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { ownSegmentCount, removeOwnSegment } from '../../../service/own-segments.ts';
import { RemoveMySegmentInputSchema, RemoveMySegmentOutputSchema } from '../../schemas/own-segments.ts';
import type { ToolDefinition } from '../../tool.ts';
import { requireRider } from './rider-context.ts';

/** Rider tool: delete one of the rider's own segments, with its watch. */
export const removeMySegment: ToolDefinition<
  typeof RemoveMySegmentInputSchema,
  typeof RemoveMySegmentOutputSchema
> = {
  name: 'remove_my_segment',
  title: 'Remove my own segment',
  description:
    "Deletes one of the rider's own segments (my--…) with its watch; cannot be undone: confirm first.",
  inputSchema: RemoveMySegmentInputSchema,
  outputSchema: RemoveMySegmentOutputSchema,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ segment_id }, context) {
    const session = await requireRider(context, SCOPE_WRITE);
    const { db } = session.store;
    const removed = await removeOwnSegment(db, session.rider.id, segment_id);
    const ownSegments = await ownSegmentCount(db, session.rider, session.nowS);
    const data = { segment_id, removed, own_segments: ownSegments };
    const count = `${ownSegments.used} of ${ownSegments.allowance} own segments used.`;
    const summary = removed
      ? `Removed the own segment ${segment_id} and its watch. ${count}`
      : `${segment_id} is not one of this rider's own segments; nothing changed. ${count}`;
    return { data, summary };
  },
};
