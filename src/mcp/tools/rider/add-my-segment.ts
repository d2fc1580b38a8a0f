import { SCOPE_WRITE } from '../../../auth/policy.ts';
import {
  allowanceRefusal,
  OWN_SEGMENT_MAX_POINTS,
  prepareOwnSegment,
  watchlistFullRefusal,
  type OwnSegmentSource,
  type PreparedSegment,
} from '../../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../../core/plans.ts';
import {
  ALERT_THRESHOLD_DEFAULT_KMH,
  ownSegmentAllowance,
  WATCHLIST_MAX_SEGMENTS,
} from '../../../core/rider-rules.ts';
import { RouteInputError } from '../../../core/route/route-error.ts';
import { MAX_ROUTE_POINTS } from '../../../core/route/route-limits.ts';
import { ownSegmentFrom } from '../../../data/segments/own-segment.ts';
import { addRiderSegment } from '../../../store/repositories/rider-segments.ts';
import { AddMySegmentInputSchema, AddMySegmentOutputSchema } from '../../schemas/own-segments.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { requireRider } from './rider-context.ts';
import { ownSegmentOut } from './own-segment-out.ts';
import { watchEntryOut } from './watch-entry.ts';

type Input = ReturnType<typeof AddMySegmentInputSchema.parse>;

/** Exactly one of points, gpx and geojson, or a tool error saying which to give. */
function sourceOf(input: Input): { source: OwnSegmentSource; value: unknown } {
  const given = (['points', 'gpx', 'geojson'] as const).filter((key) => input[key] !== undefined);
  if (given.length !== 1) {
    throw new ToolError(
      given.length === 0
        ? 'Give the line as exactly one of points ([{lat, lon, ele?}, …]), gpx (the text of a GPX file) or geojson (a LineString).'
        : `Give exactly one of points, gpx and geojson, not ${given.join(' and ')}.`,
    );
  }
  const source = given[0] ?? 'points';
  return { source, value: input[source] };
}

function prepare(source: OwnSegmentSource, value: unknown): PreparedSegment {
  try {
    return prepareOwnSegment(source, value);
  } catch (error) {
    if (error instanceof RouteInputError)
      throw new ToolError(`Not added: ${error.message}. Nothing was stored.`);
    throw error;
  }
}

/** Rider tool: store a segment of the rider's own from points, GPX or GeoJSON, and watch it. */
export const addMySegment: ToolDefinition<typeof AddMySegmentInputSchema, typeof AddMySegmentOutputSchema> = {
  name: 'add_my_segment',
  title: 'Add my own segment',
  description:
    "Stores a segment of the signed-in rider's own, from points (lat, lon, optional ele), the text of a GPX " +
    'file (track or route) or a GeoJSON LineString, and watches it (alerts on at ' +
    `${ALERT_THRESHOLD_DEFAULT_KMH} km/h; give record_s for record estimates). It is private: only this ` +
    'rider sees it, through get_my_watchlist, get_my_tailwind_windows, watch_segment and set_alert_threshold, ' +
    'by the id this answer returns (my--…); find_tailwind_segments and get_segment never show it. ' +
    `Lines are simplified to 10 m (at most ${OWN_SEGMENT_MAX_POINTS} points kept, ${MAX_ROUTE_POINTS} read); ` +
    'elevations, when given, give climbing and grade. ' +
    `Allowance: ${OWN_SEGMENT_ALLOWANCE.free} own segments on Free, ${OWN_SEGMENT_ALLOWANCE.pro} with Pro. ` +
    'A file bigger than the 64 KB request limit can be uploaded on the settings page instead.',
  inputSchema: AddMySegmentInputSchema,
  outputSchema: AddMySegmentOutputSchema,
  annotations: {
    title: 'Add my own segment',
    readOnlyHint: false,
    destructiveHint: false,
    // Each call stores a new segment, even for the same line.
    idempotentHint: false,
    openWorldHint: false,
  },
  async run(input, context) {
    const session = await requireRider(context, SCOPE_WRITE);
    const { source, value } = sourceOf(input);
    const prepared = prepare(source, value);
    const name = input.name ?? prepared.name;
    if (name === undefined) {
      throw new ToolError('Give the segment a name (the input carries none). Nothing was stored.');
    }
    const riderId = session.rider.id;
    const allowance = ownSegmentAllowance(session.rider, session.nowS);
    const outcome = await addRiderSegment(
      session.store.db,
      riderId,
      { ...prepared, name },
      {
        allowance,
        watchlistMax: WATCHLIST_MAX_SEGMENTS,
        ...(input.record_s === undefined ? {} : { recordS: input.record_s }),
      },
      session.nowS,
    );
    if (!outcome.ok) {
      if (outcome.reason === 'allowance') {
        const how = session.proAccess ? '' : ` Pricing: ${context.urls.pricing}.`;
        throw new ToolError(
          `Not added: ${allowanceRefusal(outcome.count, outcome.allowance, session.proAccess, OWN_SEGMENT_ALLOWANCE.pro)} ` +
            `remove_my_segment removes one (get_my_watchlist lists them).${how}`,
        );
      }
      if (outcome.reason === 'watchlist_full')
        throw new ToolError(`Not added: ${watchlistFullRefusal(outcome.max)}`);
      throw new ToolError('The rider account behind this connection no longer exists. Nothing was stored.');
    }
    const segment = ownSegmentFrom(outcome.segment, riderId);
    const data = {
      segment: ownSegmentOut(segment, outcome.segment, prepared.pointsRead),
      watched: watchEntryOut(outcome.watch, segment),
      own_segments: { used: outcome.count, allowance },
      locked: session.proAccess ? [] : [riderLockedFeature('more_own_segments', session, context.urls)],
    };
    const km = (segment.distanceM / 1000).toFixed(1);
    return {
      data,
      summary:
        `Added and watching "${name}" [${segment.id}]: ${km} km, ${segment.elevationGainM} m climbing, ` +
        `${segment.averageGradePct}% average grade, bearing ${data.segment.bearing_deg}°. ` +
        `${outcome.count} of ${allowance} own segments used. Only this rider can see it.`,
    };
  },
};
