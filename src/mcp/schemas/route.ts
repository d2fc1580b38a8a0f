import { z } from 'zod';
import { PRO_ONLY } from '../json-schema.ts';
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
  RideFlagSchema,
  WindowWeatherSchema,
} from './common.ts';

/** The forecast cache's grid: samples in one cell share one forecast. */
export const FORECAST_CELL_DEG = FORECAST_GRID_DEG;

/** km/h at 10 m (forecast height), rounded to 0.1: said once, in the output's description. */
const KmhSchema = z.number();

export const RoutePointInputSchema = z.object({
  latitude: LatitudeSchema,
  longitude: LongitudeSchema,
  elevation_m: z.number().optional().describe('Leave out where unknown'),
});

const LIMITS =
  `At most ${groupDigits(MAX_ROUTE_POINTS)} points, ${MAX_ROUTE_LENGTH_M / 1000} km, ` +
  `${MAX_ROUTE_BYTES / 1024 / 1024} MB, and 64 KB per MCP message: send a long track as points every 50–100 m.`;

export const GetRouteWindInputSchema = z.object({
  gpx: z
    .string()
    .optional()
    .describe(`GPX text (track, else route points); one of gpx, geojson, points. ${LIMITS}`),
  geojson: z
    .string()
    .optional()
    .describe(
      'GeoJSON text: a LineString, a Feature or a FeatureCollection of one; positions [lon, lat] or [lon, lat, ele]',
    ),
  points: z
    .array(RoutePointInputSchema)
    .optional()
    .describe('Points in riding order (decimal degrees, WGS 84)'),
  start_after: IsoTimeSchema.optional().describe('Earliest start (default: now); on whole hours'),
  start_before: IsoTimeSchema.optional().describe('Latest start (default: 72 h on)'),
  speed_kmh: z
    .number()
    .min(5, 'speed_kmh must be at least 5')
    .max(50, 'speed_kmh is at most 50')
    .optional()
    .describe('Flat, still-air speed; or power_w (neither: 25 km/h)'),
  power_w: z
    .number()
    .min(30, 'power_w must be at least 30')
    .max(800, 'power_w is at most 800')
    .optional()
    .describe('Steady pedal power'),
  mass_kg: z
    .number()
    .min(30, 'mass_kg must be at least 30')
    .max(250, 'mass_kg is at most 250')
    .default(DEFAULT_MASS_KG)
    .describe('Rider, bike and kit'),
  include_darkness: IncludeDarknessSchema,
});

const HeadwindSectionSchema = z
  .object({
    from_km: z.number(),
    to_km: z.number(),
    headwind_kmh: KmhSchema.describe('Mean, positive'),
  })
  .nullable()
  .describe('The costliest headwind stretch');

const KmWindSchema = z.object({
  from_km: z.number(),
  to_km: z.number(),
  tailwind_kmh: KmhSchema,
  crosswind_kmh: KmhSchema,
});

export const RouteStartSchema = z.object({
  start: IsoTimeSchema,
  start_local: LocalTimeSchema,
  direction: z.enum(['as_given', 'reversed']).describe('A loop is judged both ways; the faster offered'),
  other_direction: z
    .object({ ride_minutes: z.number(), time_gained_s: z.number() })
    .nullable()
    .describe('The same start the other way round'),
  finish: IsoTimeSchema,
  finish_local: LocalTimeSchema,
  tailwind_kmh: KmhSchema.describe('Each stretch in the hour the rider is there'),
  crosswind_kmh: KmhSchema,
  headwind_share_pct: z.number().describe('Into a headwind of 1 km/h or more'),
  strongest_headwind: HeadwindSectionSchema,
  ride_minutes: z.number().describe(`No stops; descents capped at ${MAX_RIDE_SPEED_KMH} km/h`),
  still_air_minutes: z.number(),
  time_gained_s: z.number().describe('Against still air (− = lost)'),
  gain_chance_pct: z.int().min(0).max(100).nullable().optional().meta(PRO_ONLY).describe('Pro: see ensemble'),
  flags: z.array(RideFlagSchema),
  // The weather met on the way, in the same fields as a segment window's (the window is the ride here).
  ...WindowWeatherSchema.shape,
});

export const GetRouteWindOutputSchema = z
  .object({
    route: z.object({
      name: z.string().nullable(),
      distance_km: z.number(),
      climbing_m: z.number().nullable().describe('3 m hysteresis; null when no point has an elevation'),
      elevation_coverage_pct: z.number().describe('Elsewhere flat'),
      points_read: z.int().describe('Consecutive duplicates dropped'),
      duplicates_dropped: z.int(),
      points_used: z.int().describe(`After simplifying to ${ROUTE_SIMPLIFY_TOLERANCE_M} m`),
      start: PointSchema,
      end: PointSchema,
      shape: z
        .enum(['loop', 'out_and_back', 'point_to_point'])
        .describe(
          `loop or out_and_back: ends at most ${CLOSED_ROUTE_GAP_M} m (${CLOSED_ROUTE_GAP_SHARE * 100}% of the ` +
            'length) apart; judged both ways',
        ),
      ends_apart_m: z.int(),
    }),
    rider: z.object({
      power_w: z.number().describe('Constant pedal power the ride is modelled at'),
      flat_speed_kmh: z.number().describe('At that power, flat, still air'),
      mass_kg: z.number(),
    }),
    sampling: z
      .object({
        spacing_km: z.number(),
        samples: z.int(),
        forecast_cell_deg: z.number(),
        interpolated_to_local_hours: z
          .boolean()
          .describe('Zone not whole hours from UTC: starts on local hours, forecast interpolated'),
      })
      .describe(
        `Forecast read every ${ROUTE_SAMPLE_SPACING_KM} km (wider past ${MAX_ROUTE_SAMPLES} samples)`,
      ),
    start_status: z
      .enum(['found', 'dark', 'wet', 'gusty', 'wet_or_gusty', 'beyond_forecast'])
      .describe('Why no best_starts'),
    time_zone: TimeZoneSchema,
    best_starts: z.array(RouteStartSchema).describe('Up to 3 rideable starts, most time gained first'),
    per_km: z.array(KmWindSchema).describe('Wind per km for the first best start, in its direction'),
    ensemble: EnsembleInfoSchema.optional().meta(PRO_ONLY),
    forecast: ForecastInfoSchema,
    attribution: AttributionSchema,
    locked: z.array(LockedFeatureSchema).optional(),
  })
  .describe('Winds in km/h at 10 m (forecast height)');

export type GetRouteWindOutput = z.infer<typeof GetRouteWindOutputSchema>;
