import { z } from 'zod';
import { OWN_SEGMENT_MAX_POINTS, OWN_SEGMENT_NAME_MAX } from '../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../core/plans.ts';
import { LockedFeatureSchema } from './common.ts';
import { GetRouteWindInputSchema, GetRouteWindOutputSchema } from './route.ts';
import { RecordSecondsSchema, RiderSegmentFactsSchema, WatchSchema } from './rider.ts';
import { SegmentIdSchema, SegmentOutIdSchema } from './segment.ts';

export const AddMySegmentInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(OWN_SEGMENT_NAME_MAX, `name is at most ${OWN_SEGMENT_NAME_MAX} characters`)
    .optional()
    .describe('Default: the name inside the GPX or GeoJSON'),
  // The route arguments of get_route_wind, whose descriptions say the formats and limits once.
  gpx: GetRouteWindInputSchema.shape.gpx.describe('As in get_route_wind; give one of gpx, geojson, points'),
  geojson: GetRouteWindInputSchema.shape.geojson.describe('As in get_route_wind'),
  points: GetRouteWindInputSchema.shape.points,
  record_s: RecordSecondsSchema.optional(),
});

export const OwnSegmentSchema = RiderSegmentFactsSchema.extend({
  source: z.enum(['gpx', 'geojson', 'points']),
  points_read: z.int().describe('Consecutive duplicates dropped'),
  points_kept: z.int().describe(`After simplifying to 10 m, at most ${OWN_SEGMENT_MAX_POINTS}`),
  elevation_coverage: z.number().describe('Share of the length with elevation, 0 to 1'),
});

const AllowanceSchema = z
  .object({
    used: z.int(),
    allowance: z.int(),
  })
  .describe(
    `Own segments kept and allowed (${OWN_SEGMENT_ALLOWANCE.free} on Free, ${OWN_SEGMENT_ALLOWANCE.pro} with Pro)`,
  );

export const AddMySegmentOutputSchema = z.object({
  segment: OwnSegmentSchema,
  watched: WatchSchema,
  own_segments: AllowanceSchema,
  locked: z.array(LockedFeatureSchema),
});

export const RemoveMySegmentInputSchema = z.object({
  segment_id: SegmentIdSchema.describe("Id of one of the rider's own segments (starts with my--)"),
});

export const RemoveMySegmentOutputSchema = z.object({
  segment_id: SegmentOutIdSchema,
  removed: z.boolean().describe('False: no own segment had this id'),
  own_segments: AllowanceSchema,
});

export type OwnSegmentOut = z.infer<typeof OwnSegmentSchema>;

/** get_route_wind at the rider address: the same route question, and optionally keep the route. */
export const RiderRouteWindInputSchema = GetRouteWindInputSchema.extend({
  save_as: z
    .string()
    .trim()
    .min(1, 'save_as must not be empty')
    .max(OWN_SEGMENT_NAME_MAX, `save_as is at most ${OWN_SEGMENT_NAME_MAX} characters`)
    .optional()
    .describe('Also keep the route as an own segment of this name (as add_my_segment)'),
});

/**
 * What became of `save_as`. A refused save does not refuse the route: the
 * answer is the route's in full, and this says why nothing was kept and
 * what to do instead (issue 28). Flat rather than a union, so every client's
 * validator reads it the same way.
 */
export const SavedSchema = z
  .object({
    kept: z.boolean(),
    segment_id: SegmentOutIdSchema.optional().describe('When kept'),
    own_segments: AllowanceSchema.optional().describe('When kept'),
    refused: z
      .enum(['closed_route', 'too_many_points', 'allowance', 'watchlist_full'])
      .optional()
      .describe('When not kept: the rule'),
    reason: z.string().optional().describe('When not kept: why'),
    instead: z.string().optional().describe('When not kept: what to do'),
  })
  .describe('With save_as: the own segment stored (watched), or why not');

export const RiderRouteWindOutputSchema = GetRouteWindOutputSchema.extend({
  // The route's facts are the answer's own; the summary says it is watched and at what threshold.
  saved: SavedSchema.optional(),
});
