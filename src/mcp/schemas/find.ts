import { z } from 'zod';
import {
  AttributionSchema,
  EnsembleInfoSchema,
  ForecastInfoSchema,
  IncludeDarknessSchema,
  LatitudeSchema,
  LockedFeatureSchema,
  LongitudeSchema,
  TailwindWindowSchema,
  TimeZoneSchema,
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
        'A town, city, island, cycling region or segment name; add a region or country to disambiguate, ' +
          'e.g. "Boulder, CO", "Santa Rosa, California", "Paris, US"',
      ),
    latitude: LatitudeSchema.optional(),
    longitude: LongitudeSchema.optional(),
    radius_m: z
      .number()
      .min(1000, 'radius_m is at least 1000 (1 km)')
      .max(MAX_RADIUS_M, `radius_m is at most ${MAX_RADIUS_M} (100 km)`)
      .default(DEFAULT_RADIUS_M)
      .describe('Search radius around the place, metres (default 25000 = 25 km, max 100000)'),
    limit: z
      .int()
      .min(1, 'limit is at least 1')
      .max(MAX_LIMIT, `limit is at most ${MAX_LIMIT}`)
      .default(DEFAULT_LIMIT)
      .describe('Most segments to return (default 10, max 25)'),
    include_darkness: IncludeDarknessSchema,
  })
  .refine((input) => (input.latitude === undefined) === (input.longitude === undefined), {
    message: 'Give latitude and longitude together.',
  })
  .refine((input) => (input.place === undefined) !== (input.latitude === undefined), {
    message: 'Give either place or latitude and longitude (one of the two, not both).',
  });

export const PlaceCandidateSchema = z.object({
  name: z.string().describe('Display name with country qualifier, e.g. "Paris, US"'),
  country_code: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  population: z.int().nullable(),
  region: z
    .string()
    .nullable()
    .describe('First-level region (state, province, autonomous community), when known, e.g. "Colorado"'),
  kind: z
    .enum(['town', 'island', 'region', 'lake'])
    .describe('A town or city, or an island, cycling region or lake found by its name'),
});

/** An island or region the place name stands for: its point is representative, its extent approximate. */
export const PlaceAreaSchema = z.object({
  kind: z.enum(['island', 'region', 'lake']),
  radius_m: z
    .number()
    .describe('About how far it reaches from the point, metres; a radius_m to search all of it (max 100000)'),
});

export const ResolvedPlaceSchema = z.object({
  name: z.string(),
  country_code: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  resolved_by: z
    .enum(['coordinates', 'segment', 'gazetteer', 'open-meteo'])
    .describe('coordinates as given; a segment name; the GeoNames gazetteer; Open-Meteo geocoding'),
  query: z.string().nullable().describe('The place text as given'),
  region: z.string().nullable().describe('First-level region of the place, when known, e.g. "Catalonia"'),
  area: PlaceAreaSchema.nullable().describe(
    'Set when the name is an island, cycling region or lake ("Mallorca", "Flanders", "Lake Garda"); null for a town, segment or coordinates',
  ),
  ambiguous: z
    .boolean()
    .describe('Another place of this name (in alternatives) may be meant: ask the rider which'),
  alternatives: z
    .array(PlaceCandidateSchema)
    .describe(
      'Other places with this name; call again with "Name, Region", "Name, CC" or coordinates to pick one',
    ),
});

export const FoundSegmentSchema = SegmentFactsSchema.extend({
  distance_from_place_m: z
    .number()
    .describe('Great-circle distance from the place to the segment start, metres'),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
});

/** How many catalog segments beyond the radius an empty answer lists. */
export const NEAREST_BEYOND_RADIUS = 3;

/**
 * How far "nearest beyond the radius" reaches: 300 km, a long day's drive
 * there and back for a ride. A segment further away is no advice for a
 * ride from the place (Haleakalā is not "near" Tokyo); the answer then says
 * so and gives the headings only.
 */
export const RIDE_REACH_M = 300_000;

export const HeadingWindowSchema = z
  .object({
    heading: z.enum(COMPASS_POINTS).describe('Compass direction of travel: N, NE, E, SE, S, SW, W, NW'),
    bearing_deg: z.number().describe('Direction of travel, degrees (0 = north, 90 = east)'),
    best_window: TailwindWindowSchema.nullable(),
    window_status: WindowStatusSchema,
  })
  .describe(
    'NOT a segment: the best rideable window for a straight road leaving the place in this direction, ' +
      "from the place's own forecast and daylight. The rider picks real roads that head roughly this way",
  );

export const FindTailwindSegmentsOutputSchema = z.object({
  place: ResolvedPlaceSchema,
  time_zone: TimeZoneSchema.describe('IANA time zone at the place: the text gives times on its clock'),
  radius_m: z.number(),
  segments: z.array(FoundSegmentSchema).describe('Most-ridden first'),
  nearest_beyond_radius: z
    .array(FoundSegmentSchema)
    .nullable()
    .describe(
      `Only when segments is empty: up to ${NEAREST_BEYOND_RADIUS} catalog segments closest to the place, ` +
        `beyond radius_m but within ${RIDE_REACH_M / 1000} km, closest first (distance_from_place_m says how ` +
        'far); empty when none is that close; null when segments is not empty',
    ),
  headings: z
    .array(HeadingWindowSchema)
    .nullable()
    .describe(
      'Only when segments is empty: HEADINGS, NOT SEGMENTS — for each of the 8 compass directions, the ' +
        'best rideable tailwind window at the place for a road heading that way; null otherwise',
    ),
  add_your_own: z
    .string()
    .nullable()
    .describe('Only when segments is empty: how to get your own roads judged; null otherwise'),
  ensemble: EnsembleInfoSchema.optional(),
  forecast: ForecastInfoSchema.nullable().describe('Null when nothing was forecast'),
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema),
});

export type FindTailwindSegmentsOutput = z.infer<typeof FindTailwindSegmentsOutputSchema>;
export type FindTailwindSegmentsInput = z.infer<typeof FindTailwindSegmentsInputSchema>;
