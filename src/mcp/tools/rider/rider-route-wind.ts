import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { RiderRouteWindInputSchema, RiderRouteWindOutputSchema } from '../../schemas/own-segments.ts';
import type { ToolDefinition } from '../../tool.ts';
import { getRouteWind } from '../get-route-wind.ts';
import { closedRouteReason, type PreparedSegment } from '../../../core/own-segment.ts';
import { readOwnSegment, SaveRefusedError, saveOwnSegment } from './own-segment-save.ts';
import { requireRider } from './rider-context.ts';

/**
 * get_route_wind as the rider address serves it: the public tool unchanged,
 * plus `save_as`, which keeps the route as one of the rider's own segments.
 * The route is read and the rider's grant checked before any weather is
 * asked for, and the segment stored only once the wind answer is in hand, so
 * a failed forecast stores nothing. A save the own-segment rules refuse (a
 * loop, the allowance) still answers the route in full: `saved` says why
 * nothing was kept and what to do instead.
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
    let prepared: PreparedSegment | SaveRefusedError;
    try {
      prepared = readOwnSegment(question);
    } catch (error) {
      if (!(error instanceof SaveRefusedError)) throw error;
      prepared = error;
    }
    const answer = await getRouteWind.run(question, context);
    const outcome =
      prepared instanceof SaveRefusedError ? prepared : await keep(session, context, prepared, save_as);
    if (!(outcome instanceof SaveRefusedError)) {
      const { segment, watched, own_segments } = outcome;
      return {
        data: { ...answer.data, saved: { kept: true, segment_id: segment.id, own_segments } },
        summary:
          `${answer.summary}\nSaved as the own segment "${save_as}" [${segment.id}], watched with alerts at ` +
          `${watched.threshold_kmh} km/h; ${own_segments.used} of ${own_segments.allowance} own segments used.`,
      };
    }
    const { reason, instead } = notKept(outcome, answer.data.route);
    return {
      data: { ...answer.data, saved: { kept: false, refused: outcome.code, reason, instead } },
      summary: `${answer.summary}\nNot saved as "${save_as}": ${reason} ${instead}`,
    };
  },
};

/** Stores the route, or hands back the rule that refused it (any other failure still throws). */
async function keep(...args: Parameters<typeof saveOwnSegment>) {
  try {
    return await saveOwnSegment(...args);
  } catch (error) {
    if (error instanceof SaveRefusedError) return error;
    throw error;
  }
}

/**
 * Why `save_as` kept nothing, and what to do instead, as this answer says
 * it. A loop's upload refusal tells the rider to judge it as a route; here
 * it has just been judged, so the advice is to ask again when planning, and
 * to keep a one-way part of it for alerts.
 */
function notKept(
  refused: SaveRefusedError,
  route: { readonly shape: string; readonly ends_apart_m: number },
): { reason: string; instead: string } {
  if (refused.code !== 'closed_route' || route.shape === 'point_to_point')
    return { reason: refused.reason, instead: refused.instead || 'Nothing was stored.' };
  return {
    reason: closedRouteReason(route.shape as 'loop' | 'out_and_back', route.ends_apart_m),
    instead:
      'This answer is its wind, both ways round: ask get_route_wind with the route again whenever you plan ' +
      'a ride on it. For alerts, keep a climb or one-way stretch of it (save_as or add_my_segment).',
  };
}
