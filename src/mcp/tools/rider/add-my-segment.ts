import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../../core/plans.ts';
import { AddMySegmentInputSchema, AddMySegmentOutputSchema } from '../../schemas/own-segments.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { readOwnSegment, saveOwnSegment } from './own-segment-save.ts';
import { requireRider } from './rider-context.ts';

/** Rider tool: store a segment of the rider's own from points, GPX or GeoJSON, and watch it. */
export const addMySegment: ToolDefinition<typeof AddMySegmentInputSchema, typeof AddMySegmentOutputSchema> = {
  name: 'add_my_segment',
  title: 'Add my own segment',
  description:
    "Keeps a road the catalog lacks (points, GPX or GeoJSON) as the rider's private, watched segment; " +
    `its id (my--…) works in the rider tools. ${OWN_SEGMENT_ALLOWANCE.free} on Free, ${OWN_SEGMENT_ALLOWANCE.pro} with Pro.`,
  inputSchema: AddMySegmentInputSchema,
  outputSchema: AddMySegmentOutputSchema,
  annotations: {
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
