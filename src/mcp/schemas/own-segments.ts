import { z } from 'zod';
import { OWN_SEGMENT_MAX_POINTS, OWN_SEGMENT_NAME_MAX } from '../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../core/plans.ts';
import { LockedFeatureSchema } from './common.ts';
import { GetRouteWindInputSchema, GetRouteWindOutputSchema } from './route.ts';
import { RecordSecondsSchema, RiderSegmentFactsSchema, WatchEntrySchema } from './rider.ts';
import { SegmentIdSchema } from './segment.ts';

export const AddMySegmentInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(OWN_SEGMENT_NAME_MAX, `name is at most ${OWN_SEGMENT_NAME_MAX} characters`)
    .optional()
    .describe('What the rider calls it; defaults to the name inside the GPX or GeoJSON'),
  gpx: GetRouteWindInputSchema.shape.gpx,
  geojson: GetRouteWindInputSchema.shape.geojson,
  points: GetRouteWindInputSchema.shape.points,
  record_s: RecordSecondsSchema.optional(),
});

export const OwnSegmentSchema = RiderSegmentFactsSchema.extend({
  source: z.enum(['gpx', 'geojson', 'points']).describe('What the rider gave'),
  points_read: z.int().describe('Points read from the input, consecutive duplicates dropped'),
  points_kept: z
    .int()
    .describe(`Points kept after simplification (10 m tolerance, at most ${OWN_SEGMENT_MAX_POINTS})`),
  elevation_coverage: z.number().describe('Share of the length with elevation, 0 to 1'),
});

const AllowanceSchema = z
  .object({
    used: z.int().describe("The rider's own segments now"),
    allowance: z
      .int()
      .describe(
        `How many they may keep: ${OWN_SEGMENT_ALLOWANCE.free} on Free, ${OWN_SEGMENT_ALLOWANCE.pro} with Pro`,
      ),
  })
  .describe('Own segments used and allowed');

export const AddMySegmentOutputSchema = z.object({
  segment: OwnSegmentSchema,
  watched: WatchEntrySchema,
  own_segments: AllowanceSchema,
  locked: z.array(LockedFeatureSchema),
});

export const RemoveMySegmentInputSchema = z.object({
  segment_id: SegmentIdSchema.describe("Id of one of the rider's own segments (starts with my--)"),
});

export const RemoveMySegmentOutputSchema = z.object({
  segment_id: SegmentIdSchema,
  removed: z.boolean().describe('False when the rider has no own segment with this id (nothing changed)'),
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
    .describe(
      "Rider address only: also store the route as one of the rider's own segments under this name, " +
        'watched like add_my_segment does (needs rider:write; counts against the own-segment allowance)',
    ),
});

export const RiderRouteWindOutputSchema = GetRouteWindOutputSchema.extend({
  saved: AddMySegmentOutputSchema.optional().describe('Present when save_as was given: the stored segment'),
});
