import {
  allowanceRefusal,
  prepareParsedSegment,
  watchlistFullRefusal,
  type OwnSegmentSource,
  type PreparedSegment,
} from '../../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../../core/plans.ts';
import { ownSegmentFrom } from '../../../data/segments/owned-segment.ts';
import { addOwnSegment } from '../../../service/own-segments.ts';
import type { ToolContext } from '../../context.ts';
import { readRouteArguments, type RouteArguments } from '../../report/route-report.ts';
import { RouteInputError } from '../../../core/route/route-error.ts';
import { ToolError } from '../../tool.ts';
import { ownSegmentOut } from './own-segment-out.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import type { RiderSession } from './rider-context.ts';
import { watchOut } from './watch-entry.ts';

/** Why a save was refused: the rule's code, what it says, and what to do instead. */
export type SaveRefusalCode = 'closed_route' | 'too_many_points' | 'allowance' | 'watchlist_full';

/**
 * A save refused by one of the own-segment rules (the line's shape or size,
 * the allowance, a full watchlist), not by the route or the account. A tool
 * error like any other for add_my_segment (its message says nothing was
 * stored); get_route_wind's `save_as` catches it instead and still answers
 * the route, because the question asked was the route's wind.
 */
export class SaveRefusedError extends ToolError {
  readonly code: SaveRefusalCode;
  /** Why, without what to do: the route tool says that in its own words. */
  readonly reason: string;
  /** What to do instead, as the upload tools say it. */
  readonly instead: string;

  constructor(code: SaveRefusalCode, reason: string, instead: string, message: string) {
    super(message);
    this.name = 'SaveRefusedError';
    this.code = code;
    this.reason = reason;
    this.instead = instead;
  }
}

/**
 * The route of a tool call, read by the route tool's own reader (same
 * arguments, same messages) and prepared for storing. Every refusal says
 * nothing was stored; a line that reads but breaks an own-segment rule
 * (a loop, too many points) is a {@link SaveRefusedError}.
 */
export function readOwnSegment(input: RouteArguments): PreparedSegment {
  const source: OwnSegmentSource =
    input.gpx !== undefined ? 'gpx' : input.geojson !== undefined ? 'geojson' : 'points';
  let route: ReturnType<typeof readRouteArguments>;
  try {
    route = readRouteArguments(input);
  } catch (error) {
    throw nothingStored(error);
  }
  try {
    return prepareParsedSegment(source, route);
  } catch (error) {
    if (
      error instanceof RouteInputError &&
      (error.code === 'closed_route' || error.code === 'too_many_points')
    )
      throw new SaveRefusedError(
        error.code,
        error.message,
        error.code === 'too_many_points' ? 'Split it into shorter segments.' : '',
        `${error.message} [${error.code}] Nothing was stored.`,
      );
    throw nothingStored(error);
  }
}

function nothingStored(error: unknown): unknown {
  if (error instanceof ToolError) return new ToolError(`${error.message} Nothing was stored.`);
  if (error instanceof RouteInputError)
    return new ToolError(`${error.message} [${error.code}] Nothing was stored.`);
  return error;
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
  const outcome = await addOwnSegment(
    session.store.db,
    session.rider,
    { ...prepared, name },
    { recordS },
    session.nowS,
  );
  if (!outcome.ok) {
    if (outcome.reason === 'allowance') {
      const how = session.proAccess ? '' : ` Pricing: ${context.urls.pricing}.`;
      const reason = allowanceRefusal(
        outcome.count,
        outcome.allowance,
        session.proAccess,
        OWN_SEGMENT_ALLOWANCE.pro,
      );
      const instead = `remove_my_segment removes one (get_my_watchlist lists them).${how}`;
      throw new SaveRefusedError('allowance', reason, instead, `Not saved: ${reason} ${instead}`);
    }
    if (outcome.reason === 'watchlist_full') {
      const reason = watchlistFullRefusal(outcome.max);
      throw new SaveRefusedError(
        'watchlist_full',
        reason,
        'unwatch_segment frees a place.',
        `Not saved: ${reason}`,
      );
    }
    throw new ToolError('The rider account behind this connection no longer exists. Nothing was stored.');
  }
  const segment = ownSegmentFrom(outcome.segment, riderId);
  return {
    segment: ownSegmentOut(segment, outcome.segment, prepared.pointsRead),
    watched: watchOut(outcome.watch, segment),
    own_segments: { used: outcome.count, allowance: outcome.allowance },
    locked: session.proAccess ? [] : [riderLockedFeature('more_own_segments', session, context.urls)],
  };
}
