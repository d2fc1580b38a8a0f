import { z } from 'zod';
import {
  AttributionSchema,
  ForecastInfoSchema,
  IncludeDarknessSchema,
  LatitudeSchema,
  LockedFeatureSchema,
  LongitudeSchema,
  TailwindWindowSchema,
  WindowStatusSchema,
} from './common.ts';
import { SegmentFactsSchema } from './segment.ts';
import { COMPASS_POINTS } from '../../core/compass.ts';

export const DEFAULT_RADIUS_M = 25_000;
export const MAX_RADIUS_M = 100_000;
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
      .describe(
        'Town, city, island, cycling region or segment name; add a region or country code to pick one, ' +
          'e.g. "Boulder, CO", "Paris, US"',
      ),
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
  kind: z.enum(['town', 'island', 'region']),
});

/** An island or region the place name stands for: its point is representative, its extent approximate. */
export const PlaceAreaSchema = z.object({
  kind: z.enum(['island', 'region']),
  radius_m: z.number().describe('About how far it reaches: a radius_m to search all of it'),
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
  area: PlaceAreaSchema.nullable().describe('Set for an island or cycling region ("Mallorca", "Flanders")'),
  alternatives: z
    .array(PlaceCandidateSchema)
    .describe('Other places of this name: pick one with "Name, Region", "Name, CC" or coordinates'),
});

export const FoundSegmentSchema = SegmentFactsSchema.extend({
  distance_from_place_m: z.number().describe('To the segment start'),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
}).meta({ id: 'FoundSegment' });

/** How many catalog segments beyond the radius an empty answer lists. */
export const NEAREST_BEYOND_RADIUS = 3;

export const HeadingWindowSchema = z
  .object({
    heading: z.enum(COMPASS_POINTS).describe('Direction of travel'),
    bearing_deg: z.number(),
    best_window: TailwindWindowSchema.nullable(),
    window_status: WindowStatusSchema,
  })
  .describe(
    'NOT a segment: a road leaving the place this way; the rider picks real roads heading roughly so',
  );

export const FindTailwindSegmentsOutputSchema = z.object({
  place: ResolvedPlaceSchema,
  radius_m: z.number(),
  segments: z.array(FoundSegmentSchema).describe('Most-ridden first'),
  nearest_beyond_radius: z
    .array(FoundSegmentSchema)
    .nullable()
    .describe(
      `Only when segments is empty: the ${NEAREST_BEYOND_RADIUS} closest segments beyond radius_m, closest first`,
    ),
  headings: z
    .array(HeadingWindowSchema)
    .nullable()
    .describe('Only when segments is empty: HEADINGS, NOT SEGMENTS: the best window for 8 directions'),
  add_your_own: z
    .string()
    .nullable()
    .describe('Only when segments is empty: how to get your own roads judged'),
  forecast: ForecastInfoSchema.nullable(),
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema),
});

export type FindTailwindSegmentsOutput = z.infer<typeof FindTailwindSegmentsOutputSchema>;
export type FindTailwindSegmentsInput = z.infer<typeof FindTailwindSegmentsInputSchema>;
