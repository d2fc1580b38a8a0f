import { MAX_GRADE_RUN_M } from '../../core/discovery/climb-rule.ts';
import { z } from 'zod';
import { PRO_ONLY } from '../json-schema.ts';
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
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'segment_id is a lower-case slug such as "fr-alpe-d-huez"');

/** A segment id in an answer: ours, so it needs no bounds. */
export const SegmentOutIdSchema = z.string();

/** A segment id as an argument, where a model needs to know where ids come from. */
export const SegmentIdArgSchema = SegmentIdSchema.describe('From find_tailwind_segments or add_my_segment');

/** The facts about a segment that every tool repeats. */
export const SegmentFactsSchema = z.object({
  id: SegmentOutIdSchema,
  name: z.string(),
  country_code: z.string(),
  distance_m: z.number(),
  average_grade_pct: z.number(),
  elevation_gain_m: z.number(),
  popularity_rank: z.int().min(1).describe('1 = best known; no ride counts'),
  start: PointSchema,
  bearing_deg: z.number().describe('Start to end'),
});

export const GetSegmentInputSchema = z.object({
  segment_id: SegmentIdArgSchema,
  include_darkness: IncludeDarknessSchema,
  // Opt-in: 72 hours are about 20 KB, four times the rest of the answer.
  include_timeline: z
    .boolean()
    .default(false)
    .meta(PRO_ONLY)
    .describe('Pro: add the 72-hour timeline (20 KB)'),
});

export const GetSegmentOutputSchema = z.object({
  segment: SegmentFactsSchema.extend({
    popularity_rank: z
      .int()
      .min(1)
      .nullable()
      .describe(
        "1 = best known in the catalog (editorial, then route, pass, size; never a ride count); null for a rider's own segment",
      ),
    aliases: z.array(z.string()),
    max_grade_pct: z
      .number()
      .optional()
      .describe(`Steepest ${MAX_GRADE_RUN_M} m, % (discovered segments: measured along the road)`),
    end: PointSchema,
    compass: z.string().describe('bearing_deg on an 8-point compass'),
    // A pair as a fixed-length array, not a tuple: tuple keywords differ between JSON Schema
    // drafts (a draft-07 validator reads 2020-12's `items: false` as "no elements at all").
    polyline: z.array(z.array(z.number()).length(2)).describe('[latitude, longitude] pairs in riding order'),
    source: z.string(),
    license: z.string(),
  }),
  time_zone: TimeZoneSchema,
  wind_now: SegmentHourSchema.nullable().describe('The current hour'),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
  timeline: z.array(SegmentHourSchema).optional().meta(PRO_ONLY).describe('Pro: 72 hours'),
  ensemble: EnsembleInfoSchema.optional().meta(PRO_ONLY),
  forecast: ForecastInfoSchema.nullable(),
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema),
});

export type GetSegmentOutput = z.infer<typeof GetSegmentOutputSchema>;
