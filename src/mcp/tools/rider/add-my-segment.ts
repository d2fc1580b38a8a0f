import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { OWN_SEGMENT_MAX_POINTS } from '../../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../../core/plans.ts';
import { ALERT_THRESHOLD_DEFAULT_KMH } from '../../../core/rider-rules.ts';
import { MAX_ROUTE_POINTS } from '../../../core/route/route-limits.ts';
import { AddMySegmentInputSchema, AddMySegmentOutputSchema } from '../../schemas/own-segments.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { readOwnSegment, saveOwnSegment } from './own-segment-save.ts';
import { requireRider } from './rider-context.ts';

/** Rider tool: store a segment of the rider's own from points, GPX or GeoJSON, and watch it. */
export const addMySegment: ToolDefinition<typeof AddMySegmentInputSchema, typeof AddMySegmentOutputSchema> = {
  name: 'add_my_segment',
  title: 'Add my own segment',
  description:
    "Stores a segment of the signed-in rider's own, from points (latitude, longitude, optional elevation_m), " +
    'the text of a GPX file (track or route) or GeoJSON text (a LineString), and watches it (alerts on at ' +
    `${ALERT_THRESHOLD_DEFAULT_KMH} km/h; give record_s for record estimates). It is private: only this ` +
    'rider sees it, through get_my_watchlist, get_my_tailwind_windows, watch_segment and set_alert_threshold, ' +
    'by the id this answer returns (my--…); find_tailwind_segments and get_segment never show it. ' +
    `Lines are simplified to 10 m (at most ${OWN_SEGMENT_MAX_POINTS} points kept, ${MAX_ROUTE_POINTS} read); ` +
    'elevations, when given, give climbing, grade and grade-by-grade record estimates. ' +
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
    const prepared = readOwnSegment(input);
    const name = input.name ?? prepared.name;
    if (name === undefined) {
      throw new ToolError('Give the segment a name (the input carries none). Nothing was stored.');
    }
    const data = await saveOwnSegment(session, context, prepared, name, input.record_s);
    const km = (data.segment.distance_m / 1000).toFixed(1);
    return {
      data,
      summary:
        `Added and watching "${name}" [${data.segment.id}]: ${km} km, ${data.segment.elevation_gain_m} m climbing, ` +
        `${data.segment.average_grade_pct}% average grade, bearing ${data.segment.bearing_deg}°. ` +
        `${data.own_segments.used} of ${data.own_segments.allowance} own segments used. Only this rider can see it.`,
    };
  },
};
