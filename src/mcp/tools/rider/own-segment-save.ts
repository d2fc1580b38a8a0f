import {
  allowanceRefusal,
  prepareParsedSegment,
  watchlistFullRefusal,
  type OwnSegmentSource,
  type PreparedSegment,
} from '../../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../../core/plans.ts';
import { ownSegmentAllowance, WATCHLIST_MAX_SEGMENTS } from '../../../core/rider-rules.ts';
import { ownSegmentFrom } from '../../../data/segments/owned-segment.ts';
import { addRiderSegment } from '../../../store/repositories/rider-segments.ts';
import type { ToolContext } from '../../context.ts';
import { readRouteArguments, type RouteArguments } from '../../report/route-report.ts';
import { RouteInputError } from '../../../core/route/route-error.ts';
import { ToolError } from '../../tool.ts';
import { ownSegmentOut } from './own-segment-out.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import type { RiderSession } from './rider-context.ts';
import { watchOut } from './watch-entry.ts';

/**
 * The route of a tool call, read by the route tool's own reader (same
 * arguments, same messages) and prepared for storing. Every refusal says
 * nothing was stored.
 */
export function readOwnSegment(input: RouteArguments): PreparedSegment {
  const source: OwnSegmentSource =
    input.gpx !== undefined ? 'gpx' : input.geojson !== undefined ? 'geojson' : 'points';
  try {
    return prepareParsedSegment(source, readRouteArguments(input));
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(`${error.message} Nothing was stored.`);
    if (error instanceof RouteInputError)
      throw new ToolError(`${error.message} [${error.code}] Nothing was stored.`);
    throw error;
  }
}

/**
 * Stores a prepared line as the rider's own segment and watches it, or
 * throws the tool error naming the rule that refused it (nothing stored).
 * Shared by add_my_segment and get_route_wind's save_as at the rider address.
 */
export async function saveOwnSegment(
  session: RiderSession,
  context: ToolContext,
  prepared: PreparedSegment,
  name: string,
  recordS?: number,
) {
  const riderId = session.rider.id;
  const allowance = ownSegmentAllowance(session.rider, session.nowS);
  const outcome = await addRiderSegment(
    session.store.db,
    riderId,
    { ...prepared, name },
    { allowance, watchlistMax: WATCHLIST_MAX_SEGMENTS, ...(recordS === undefined ? {} : { recordS }) },
    session.nowS,
  );
  if (!outcome.ok) {
    if (outcome.reason === 'allowance') {
      const how = session.proAccess ? '' : ` Pricing: ${context.urls.pricing}.`;
      throw new ToolError(
        `Not saved: ${allowanceRefusal(outcome.count, outcome.allowance, session.proAccess, OWN_SEGMENT_ALLOWANCE.pro)} ` +
          `remove_my_segment removes one (get_my_watchlist lists them).${how}`,
      );
    }
    if (outcome.reason === 'watchlist_full')
      throw new ToolError(`Not saved: ${watchlistFullRefusal(outcome.max)}`);
    throw new ToolError('The rider account behind this connection no longer exists. Nothing was stored.');
  }
  const segment = ownSegmentFrom(outcome.segment, riderId);
  return {
    segment: ownSegmentOut(segment, outcome.segment, prepared.pointsRead),
    watched: watchOut(outcome.watch, segment),
    own_segments: { used: outcome.count, allowance },
    locked: session.proAccess ? [] : [riderLockedFeature('more_own_segments', session, context.urls)],
  };
}
