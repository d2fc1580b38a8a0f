import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { RiderRouteWindInputSchema, RiderRouteWindOutputSchema } from '../../schemas/own-segments.ts';
import type { ToolDefinition } from '../../tool.ts';
import { getRouteWind } from '../get-route-wind.ts';
import { readOwnSegment, saveOwnSegment } from './own-segment-save.ts';
import { requireRider } from './rider-context.ts';

/**
 * get_route_wind as the rider address serves it: the public tool unchanged,
 * plus `save_as`, which keeps the route as one of the rider's own segments.
 * The route is read and the rider's grant checked before any weather is
 * asked for, and the segment stored only once the wind answer is in hand, so
 * a refused save costs no forecast call and a failed forecast stores nothing.
 */
export const riderRouteWind: ToolDefinition<
  typeof RiderRouteWindInputSchema,
  typeof RiderRouteWindOutputSchema
> = {
  ...getRouteWind,
  description: `${getRouteWind.description} With save_as, also keeps the route as one of the rider's own segments.`,
  inputSchema: RiderRouteWindInputSchema,
  outputSchema: RiderRouteWindOutputSchema,
  annotations: {
    ...getRouteWind.annotations,
    // With save_as it stores a segment; without, it only reads.
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
  },
  async run(input, context) {
    const { save_as, ...question } = input;
    if (save_as === undefined) return getRouteWind.run(question, context);
    const session = await requireRider(context, SCOPE_WRITE);
    const prepared = readOwnSegment(question);
    const answer = await getRouteWind.run(question, context);
    const { segment, watched, own_segments } = await saveOwnSegment(session, context, prepared, save_as);
    return {
      data: { ...answer.data, saved: { segment_id: segment.id, own_segments } },
      summary:
        `${answer.summary}\nSaved as the own segment "${save_as}" [${segment.id}], watched with alerts at ` +
        `${watched.threshold_kmh} km/h; ${own_segments.used} of ${own_segments.allowance} own segments used.`,
    };
  },
};
