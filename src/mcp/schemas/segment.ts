import { z } from 'zod';
import {
  AttributionSchema,
  EnsembleInfoSchema,
  ForecastInfoSchema,
  IncludeDarknessSchema,
  LockedFeatureSchema,
  PointSchema,
  SegmentHourSchema,
  TailwindWindowSchema,
  TimeZoneSchema,
  WindowStatusSchema,
} from './common.ts';

/** Segment ids are lower-case slugs; the bound keeps junk out of logs and lookups. */
export const SegmentIdSchema = z
  .string()
  .min(1, 'segment_id must not be empty')
  .max(100, 'segment_id is at most 100 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'segment_id is a lower-case slug such as "fr-alpe-d-huez"')
  .describe('Segment id as returned by find_tailwind_segments, e.g. "fr-alpe-d-huez"');

/** The facts about a segment that every tool repeats. */
export const SegmentFactsSchema = z.object({
  id: SegmentIdSchema,
  name: z.string(),
  country_code: z.string().describe('ISO 3166-1 alpha-2'),
  distance_m: z.number().describe('Length, metres'),
  average_grade_pct: z.number().describe('Average grade, percent'),
  elevation_gain_m: z.number().describe('Elevation gain, metres'),
  popularity_rank: z
    .int()
    .min(1)
    .describe('1 = most ridden in the catalog (editorial rank, not an effort count)'),
  start: PointSchema,
  bearing_deg: z.number().describe('Initial great-circle bearing from start to end, degrees'),
});

export const GetSegmentInputSchema = z.object({
  segment_id: SegmentIdSchema,
  include_darkness: IncludeDarknessSchema,
});

export const GetSegmentOutputSchema = z.object({
  segment: SegmentFactsSchema.extend({
    popularity_rank: z
      .int()
      .min(1)
      .nullable()
      .describe(
        "1 = most ridden in the catalog (editorial rank, not an effort count); null for a rider's own segment",
      ),
    aliases: z.array(z.string()),
    end: PointSchema,
    compass: z.string().describe('8-point compass of bearing_deg'),
    // A pair as a fixed-length array, not a tuple: tuple keywords differ between JSON Schema
    // drafts (a draft-07 validator reads 2020-12's `items: false` as "no elements at all").
    polyline: z
      .array(z.array(z.number()).length(2))
      .describe('The route as [latitude, longitude] pairs in riding order'),
    source: z.string().describe('How the catalog entry was made'),
    license: z.string(),
  }),
  time_zone: TimeZoneSchema.describe('IANA time zone at the start of the segment'),
  wind_now: SegmentHourSchema.nullable().describe('The current forecast hour on this segment'),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
  timeline: z
    .array(SegmentHourSchema)
    .optional()
    .describe('Hour by hour for the next 72 hours (Pro; listed under locked otherwise)'),
  ensemble: EnsembleInfoSchema.optional(),
  forecast: ForecastInfoSchema.nullable(),
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema),
});

export type GetSegmentOutput = z.infer<typeof GetSegmentOutputSchema>;
