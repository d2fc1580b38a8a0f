import { z } from 'zod';
import { MAX_RADIUS_M, NEAREST_BEYOND_RADIUS, RIDE_REACH_M } from '../../service/segments-around.ts';
import { PRO_ONLY } from '../json-schema.ts';
import {
  AttributionSchema,
  ChanceSchema,
  CivilTwilightSchema,
  EnsembleInfoSchema,
  ForecastInfoSchema,
  IncludeDarknessSchema,
  IsoTimeSchema,
  LatitudeSchema,
  LockedFeatureSchema,
  LongitudeSchema,
  RideFlagSchema,
  TimeZoneSchema,
  WindowStatusSchema,
} from './common.ts';
import { SegmentFactsSchema } from './segment.ts';
import { COMPASS_POINTS } from '../../core/compass.ts';

export const DEFAULT_RADIUS_M = 25_000;
export { MAX_RADIUS_M };
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 25;

export const FindTailwindSegmentsInputSchema = z
  .object({
    place: z
      .string()
      .trim()
      .min(1, 'place must not be empty')
      .max(120, 'place is at most 120 characters')
      .optional()
      .describe('Town, region, island, lake or segment; "Boulder, CO" or "Paris, US" picks one'),
    latitude: LatitudeSchema.optional().describe('Instead of place: decimal degrees, WGS 84'),
    longitude: LongitudeSchema.optional(),
    radius_m: z
      .number()
      .min(1000, 'radius_m is at least 1000 (1 km)')
      .max(MAX_RADIUS_M, `radius_m is at most ${MAX_RADIUS_M} (100 km)`)
      .default(DEFAULT_RADIUS_M)
      .describe('Search radius, metres'),
    limit: z
      .int()
      .min(1, 'limit is at least 1')
      .max(MAX_LIMIT, `limit is at most ${MAX_LIMIT}`)
      .default(DEFAULT_LIMIT)
      .describe('Most segments to return'),
    include_darkness: IncludeDarknessSchema,
  })
  .refine((input) => (input.latitude === undefined) === (input.longitude === undefined), {
    message: 'Give latitude and longitude together.',
  })
  .refine((input) => (input.place === undefined) !== (input.latitude === undefined), {
    message: 'Give either place or latitude and longitude (one of the two, not both).',
  });

export const PlaceCandidateSchema = z.object({
  name: z.string(),
  country_code: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  population: z.int().nullable(),
  region: z.string().nullable(),
  kind: z.enum(['town', 'island', 'region', 'lake']),
});

/** An island or region the place name stands for: its point is representative, its extent approximate. */
export const PlaceAreaSchema = z.object({
  kind: z.enum(['island', 'region', 'lake']),
  radius_m: z.number().describe('A radius_m to search all of it'),
});

export const ResolvedPlaceSchema = z.object({
  name: z.string(),
  country_code: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  resolved_by: z
    .enum(['coordinates', 'segment', 'gazetteer', 'open-meteo'])
    .describe('gazetteer: GeoNames; open-meteo: its geocoding'),
  query: z.string().nullable().describe('The place text as given'),
  region: z.string().nullable(),
  area: PlaceAreaSchema.nullable().describe('Island, region or lake'),
  ambiguous: z.boolean().describe('Another place in alternatives may be meant: ask'),
  alternatives: z.array(PlaceCandidateSchema).describe('Other places of this name'),
});

/**
 * A best window in a list: the figures that decide between segments and
 * headings, and nothing the answer says once for all of them. Its times are
 * UTC only (the answer's `time_zone` reads them; the text has them local),
 * its daylight is the answer's `daylight`, its winds are at 10 m only (× the
 * rider-height factor of the server's instructions for the felt wind), and
 * rain and gusts are in its flags: the hours are rideable, so they are below
 * the limits unless `wet` or `gusty` says otherwise. get_segment gives the
 * whole window: peak hour, wind, rain, gusts, dusk.
 */
export const BriefWindowSchema = z
  .object({
    start: IsoTimeSchema,
    end: IsoTimeSchema,
    peak_tailwind_kmh: z.number(),
    mean_tailwind_kmh: z.number(),
    min_temperature_c: z.number().nullable(),
    max_temperature_c: z.number().nullable(),
    flags: z.array(RideFlagSchema).describe('What is marginal: pass it on'),
    chance: ChanceSchema.optional().meta(PRO_ONLY),
  })
  .describe(
    'Best rideable tailwind window in 72 h, in brief (get_segment: whole). Winds at 10 m; rain, gusts: flags',
  )
  .meta({ id: 'BriefWindow' });

/** A segment in a list: its facts but the geometry (start, bearing), which get_segment gives. */
export const FoundSegmentSchema = SegmentFactsSchema.omit({ start: true, bearing_deg: true })
  .extend({
    distance_from_place_m: z.number().describe('To the segment start'),
    time_zone: TimeZoneSchema.optional().describe("Only where not the answer's"),
    best_window: BriefWindowSchema.nullable(),
    window_status: WindowStatusSchema,
  })
  .meta({ id: 'FoundSegment' });

/** The rule of which segments are listed lives below both surfaces (`src/service/segments-around.ts`). */
export { NEAREST_BEYOND_RADIUS, RIDE_REACH_M };

export const HeadingWindowSchema = z
  .object({
    heading: z.enum(COMPASS_POINTS).describe('Direction of travel'),
    bearing_deg: z.number(),
    best_window: BriefWindowSchema.nullable(),
    window_status: WindowStatusSchema,
  })
  .describe('NOT a segment: roads leaving the place this way');

export const FindTailwindSegmentsOutputSchema = z.object({
  place: ResolvedPlaceSchema,
  time_zone: TimeZoneSchema.describe('IANA, at the place: reads every time here'),
  daylight: z
    .array(CivilTwilightSchema)
    .describe('Civil dawn and dusk at the place, each day of the 72 h (segments near differ by minutes)'),
  radius_m: z.number(),
  segments: z
    .array(FoundSegmentSchema)
    .describe(
      'Best-known first: editorial rank, then cycle route, named pass, Wikidata, climb size (no ride counts)',
    ),
  nearest_beyond_radius: z
    .array(FoundSegmentSchema)
    .nullable()
    .describe(
      `With no segment in radius_m: up to ${NEAREST_BEYOND_RADIUS} closest beyond it, within ${RIDE_REACH_M / 1000} km`,
    ),
  headings: z.array(HeadingWindowSchema).nullable().describe('With no segment: HEADINGS, NOT SEGMENTS'),
  add_your_own: z.string().nullable().describe('With no segment: how to add your roads'),
  mapping: z
    .string()
    .optional()
    .describe('Roads here are being mapped for segments, or could not be: say so'),
  ensemble: EnsembleInfoSchema.optional().meta(PRO_ONLY),
  forecast: ForecastInfoSchema.nullable(),
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema),
});

export type FindTailwindSegmentsOutput = z.infer<typeof FindTailwindSegmentsOutputSchema>;
