import { z } from 'zod';
import { groupDigits } from '../../core/group-digits.ts';
import { DEFAULT_MASS_KG } from '../../core/power-model.ts';
import { FORECAST_GRID_DEG } from '../../data/forecast/cache.ts';
import { MAX_ROUTE_BYTES, MAX_ROUTE_LENGTH_M, MAX_ROUTE_POINTS } from '../../core/route/route-limits.ts';
import {
  MAX_RIDE_SPEED_KMH,
  MAX_ROUTE_SAMPLES,
  ROUTE_SAMPLE_SPACING_KM,
} from '../../core/route/route-ride.ts';
import { ROUTE_SIMPLIFY_TOLERANCE_M } from '../../core/route/route-simplify.ts';
import { CLOSED_ROUTE_GAP_M, CLOSED_ROUTE_GAP_SHARE } from '../../core/route/route-loop.ts';
import {
  AttributionSchema,
  EnsembleInfoSchema,
  ForecastInfoSchema,
  LockedFeatureSchema,
  IncludeDarknessSchema,
  IsoTimeSchema,
  LatitudeSchema,
  LocalTimeSchema,
  LongitudeSchema,
  TimeZoneSchema,
  PointSchema,
  WindowWeatherSchema,
} from './common.ts';

/** The forecast cache's grid: samples in one cell share one forecast. */
export const FORECAST_CELL_DEG = FORECAST_GRID_DEG;

const KmhSchema = z.number().describe('km/h at 10 m (forecast height), rounded to 0.1');

export const RoutePointInputSchema = z.object({
  latitude: LatitudeSchema,
  longitude: LongitudeSchema,
  elevation_m: z.number().optional().describe('Elevation, metres; leave out where unknown'),
});

const LIMITS =
  `A route may have up to ${groupDigits(MAX_ROUTE_POINTS)} points, ${MAX_ROUTE_LENGTH_M / 1000} km ` +
  `and ${MAX_ROUTE_BYTES / 1024 / 1024} MB, and a whole MCP message 64 KB: send a long track as points ` +
  'every 50–100 m rather than the raw recording.';

export const GetRouteWindInputSchema = z.object({
  gpx: z
    .string()
    .optional()
    .describe(`The route as GPX 1.0/1.1 text (track points, else route points). ${LIMITS}`),
  geojson: z
    .string()
    .optional()
    .describe(
      'The route as GeoJSON text: a LineString, a Feature of one, or a FeatureCollection with exactly one ' +
        'line; positions [longitude, latitude] or [longitude, latitude, elevation].',
    ),
  points: z
    .array(RoutePointInputSchema)
    .optional()
    .describe('The route as points in riding order. Give exactly one of gpx, geojson and points.'),
  start_after: IsoTimeSchema.optional().describe(
    'Earliest start to consider, ISO 8601; default now, and an earlier time means now. Starts fall on whole ' +
      'UTC hours within the next 72 h',
  ),
  start_before: IsoTimeSchema.optional().describe(
    'Latest start to consider, ISO 8601; default 72 h from now (a ride must also end inside the forecast)',
  ),
  speed_kmh: z
    .number()
    .min(5, 'speed_kmh must be at least 5')
    .max(50, 'speed_kmh is at most 50')
    .optional()
    .describe(
      "The rider's speed on the flat in still air, km/h; turned into a constant power with the power model. " +
        'Give speed_kmh or power_w, not both; neither means 25 km/h',
    ),
  power_w: z
    .number()
    .min(30, 'power_w must be at least 30')
    .max(800, 'power_w is at most 800')
    .optional()
    .describe("The rider's steady pedal power, watts"),
  mass_kg: z
    .number()
    .min(30, 'mass_kg must be at least 30')
    .max(250, 'mass_kg is at most 250')
    .default(DEFAULT_MASS_KG)
    .describe(`Rider, bike and kit, kg (default ${DEFAULT_MASS_KG})`),
  include_darkness: IncludeDarknessSchema,
});

const HeadwindSectionSchema = z
  .object({
    from_km: z.number(),
    to_km: z.number(),
    headwind_kmh: KmhSchema.describe('Length-weighted mean headwind over the stretch (positive)'),
  })
  .nullable()
  .describe(
    'The contiguous headwind stretch that costs most (headwind × length); null when no part of the ride has a headwind',
  );

const KmWindSchema = z.object({
  from_km: z.number(),
  to_km: z.number(),
  tailwind_kmh: KmhSchema.describe('Length-weighted along-track wind: positive = tailwind'),
  crosswind_kmh: KmhSchema,
});

export const RouteStartSchema = z.object({
  start: IsoTimeSchema,
  start_local: LocalTimeSchema,
  direction: z
    .enum(['as_given', 'reversed'])
    .describe(
      'Which way round these figures ride the route: as given, or reversed (a loop or out-and-back is ' +
        'judged both ways from the same start at the same power, and the faster way is offered)',
    ),
  other_direction: z
    .object({
      ride_minutes: z.number().describe('Riding time the other way round from the same start, minutes'),
      time_gained_s: z.number().describe('Seconds the wind saves (negative = costs) riding it that way'),
    })
    .nullable()
    .describe(
      'The same start ridden the other way round, at the same power; null on a point-to-point route ' +
        '(or when that ride would end beyond the forecast)',
    ),
  finish: IsoTimeSchema.describe('Arrival at this start, riding at the given power in the forecast wind'),
  finish_local: LocalTimeSchema,
  tailwind_kmh: KmhSchema.describe(
    'Length-weighted along-track wind over the route, each stretch in the forecast hour the rider is there: positive = tailwind',
  ),
  crosswind_kmh: KmhSchema.describe('Length-weighted mean crosswind magnitude'),
  headwind_share_pct: z.number().describe('Share of the route ridden into a headwind (≥ 1 km/h), percent'),
  strongest_headwind: HeadwindSectionSchema,
  ride_minutes: z
    .number()
    .describe(
      `Riding time in this forecast, minutes (no stops; descents capped at ${MAX_RIDE_SPEED_KMH} km/h)`,
    ),
  still_air_minutes: z.number().describe('Riding time at the same power in still air, minutes'),
  time_gained_s: z
    .number()
    .describe('Seconds saved against still air (negative = time lost to the wind), from the power model'),
  gain_chance_pct: z
    .int()
    .min(0)
    .max(100)
    .nullable()
    .optional()
    .describe(
      'Pro: share of ensemble members (uncalibrated) in which this ride is faster than in still air, each ' +
        'member riding its own wind; null when members are missing somewhere on the ride',
    ),
  flags: z
    .array(z.enum(['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot']))
    .describe('What is marginal on the ride (empty = nothing), as for segment windows'),
  // The weather met on the way, in the same fields as a segment window's (the window is the ride here).
  ...WindowWeatherSchema.shape,
});

export const GetRouteWindOutputSchema = z.object({
  route: z.object({
    name: z.string().nullable(),
    distance_km: z.number().describe('Length along the points, km (0.1)'),
    climbing_m: z
      .number()
      .nullable()
      .describe('Climbing with 3 m hysteresis over the points with an elevation; null when none has one'),
    elevation_coverage_pct: z
      .number()
      .describe(
        'Share of the length with an elevation at both ends of its legs (grades elsewhere count as flat)',
      ),
    points_read: z.int().describe('Points in the input after dropping consecutive duplicates'),
    duplicates_dropped: z.int(),
    points_used: z
      .int()
      .describe(
        `Points kept after simplification (Douglas–Peucker, ${ROUTE_SIMPLIFY_TOLERANCE_M} m tolerance)`,
      ),
    start: PointSchema,
    end: PointSchema,
    shape: z
      .enum(['loop', 'out_and_back', 'point_to_point'])
      .describe(
        `loop or out_and_back when the ends are at most ${CLOSED_ROUTE_GAP_M} m apart (and at most ` +
          `${CLOSED_ROUTE_GAP_SHARE * 100}% of the length); out_and_back when it also retraces its way out. ` +
          'Such a route is judged in both directions',
      ),
    ends_apart_m: z.int().describe('Distance between the first and the last point, metres'),
  }),
  rider: z.object({
    power_w: z.number().describe('Constant pedal power the ride is modelled at, watts'),
    flat_speed_kmh: z.number().describe('Speed at that power on the flat in still air'),
    mass_kg: z.number(),
  }),
  sampling: z
    .object({
      spacing_km: z.number(),
      samples: z.int(),
      forecast_cell_deg: z.number(),
    })
    .describe(
      `Where the forecast is read: every ${ROUTE_SAMPLE_SPACING_KM} km along the route and at its end ` +
        `(wider past ${MAX_ROUTE_SAMPLES} samples), in one batched request; samples in one ` +
        `${FORECAST_CELL_DEG}° cell share a forecast`,
    ),
  start_status: z
    .enum(['found', 'dark', 'wet', 'gusty', 'wet_or_gusty', 'beyond_forecast'])
    .describe(
      'found: see best_starts; dark: every start would ride in darkness (include_darkness: true for lights); ' +
        'wet, gusty, wet_or_gusty: every daylight start meets rain or gusts over the limit; beyond_forecast: ' +
        'no start in the range lets the ride end inside the 72 h forecast',
    ),
  time_zone: TimeZoneSchema.describe(
    'IANA time zone at the start of the route; the local times and the text are in it',
  ),
  best_starts: z
    .array(RouteStartSchema)
    .describe(
      'Up to 3 rideable starts (at least 2 h apart), ordered by time_gained_s, most time gained first ' +
        '(the earlier start on a tie); the first may still lose time when every start does: it loses least',
    ),
  per_km: z
    .array(KmWindSchema)
    .describe(
      'The wind per kilometre for the first best start, in its direction (km from where that ride starts); ' +
        'empty when there is none',
    ),
  ensemble: EnsembleInfoSchema.optional(),
  forecast: ForecastInfoSchema,
  attribution: AttributionSchema,
  locked: z.array(LockedFeatureSchema).optional().describe('Pro details withheld from this caller'),
});

export type GetRouteWindInput = z.output<typeof GetRouteWindInputSchema>;
export type GetRouteWindOutput = z.infer<typeof GetRouteWindOutputSchema>;
