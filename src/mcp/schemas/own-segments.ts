import { z } from 'zod';
import { OWN_SEGMENT_MAX_POINTS, OWN_SEGMENT_NAME_MAX } from '../../core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../core/plans.ts';
import { MAX_ROUTE_POINTS } from '../../core/route/route-limits.ts';
import { LockedFeatureSchema } from './common.ts';
import { RecordSecondsSchema, RiderSegmentFactsSchema, WatchEntrySchema } from './rider.ts';
import { SegmentIdSchema } from './segment.ts';

const RoutePointSchema = z.object({
  lat: z.number().min(-90).max(90).describe('Latitude, degrees'),
  lon: z.number().min(-180).max(180).describe('Longitude, degrees'),
  ele: z.number().optional().describe('Elevation, metres (optional; gives climbing and grade)'),
});

export const AddMySegmentInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(OWN_SEGMENT_NAME_MAX, `name is at most ${OWN_SEGMENT_NAME_MAX} characters`)
    .optional()
    .describe('What the rider calls it; defaults to the name inside the GPX or GeoJSON'),
  points: z
    .array(RoutePointSchema)
    .min(2, 'points needs at least 2 points')
    .max(MAX_ROUTE_POINTS, `points holds at most ${MAX_ROUTE_POINTS} points`)
    .optional()
    .describe('The line in riding order; give exactly one of points, gpx and geojson'),
  gpx: z
    .string()
    .optional()
    .describe('The text of a GPX file (track or route); the MCP request body is capped at 64 KB'),
  geojson: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .optional()
    .describe(
      'A GeoJSON LineString, a Feature of one, or a FeatureCollection holding one ([lon, lat(, ele)])',
    ),
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
