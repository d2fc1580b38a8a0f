import { z } from 'zod';
import { WIND_HEIGHT_FACTOR } from '../../core/power-model.ts';
import {
  COLD_C,
  DAMP_PRECIPITATION_MM,
  DAMP_PROBABILITY_PCT,
  FREEZING_C,
  GUST_LIMIT_KMH,
  GUSTY_KMH,
  HOT_C,
  type RideFlag,
  WET_PRECIPITATION_MM,
  WET_PROBABILITY_PCT,
} from '../../core/rideable.ts';
import type { WindowStatus } from '../../core/tailwind-window.ts';

/**
 * Times are ISO 8601 in UTC, to the second. No words of its own: the format
 * says it, and each field that needs one says what its time is.
 */
export const IsoTimeSchema = z.iso.datetime();

/** Bounds only: the unit (decimal degrees, WGS 84) is said once, where a tool's arguments or the Point shape are described. */
export const LatitudeSchema = z
  .number()
  .min(-90, 'latitude must be between -90 and 90')
  .max(90, 'latitude must be between -90 and 90');

export const LongitudeSchema = z
  .number()
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180');

/** A point in an answer: ours, so its coordinates need no bounds. */
export const PointSchema = z
  .object({ latitude: z.number(), longitude: z.number() })
  .describe('Decimal degrees, WGS 84')
  .meta({ id: 'Point' });

/**
 * km/h, rounded to 0.1: the unit is in every field's name, so the number
 * needs no words of its own.
 */
const KmhSchema = z.number();

/**
 * How to read the wind fields, said once in the description of the shape
 * that holds them rather than on each field (the server's instructions say
 * more): figures at the forecast's 10 m, and at rider height the 10 m figure
 * times the log-profile factor the record estimates use
 * (model.wind_height_factor, 0.673).
 */
export const WIND_FIELDS = `Winds at 10 m; *_rider_height: × ${WIND_HEIGHT_FACTOR.toFixed(3)}, felt at 1.5 m`;

/** What each flag means, for the server's instructions (said once per session, not in every schema). */
export const FLAG_RULES =
  `dark: at night (include_darkness); wet: ≥ ${DAMP_PRECIPITATION_MM} mm or ${DAMP_PROBABILITY_PCT}% rain ` +
  `in an hour; gusty: gusts ≥ ${GUSTY_KMH} km/h; cold: < ${COLD_C} °C; freezing: ≤ ${FREEZING_C} °C; ` +
  `hot: ≥ ${HOT_C} °C`;

/** What makes an hour rideable, in a few words. */
export const RIDEABLE_RULE = `daylight, rain under ${WET_PRECIPITATION_MM} mm and ${WET_PROBABILITY_PCT}%, gusts under ${GUST_LIMIT_KMH} km/h`;

export const RideFlagSchema = z
  .enum(['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot'] as const satisfies readonly RideFlag[])
  .meta({ id: 'Flag' });

/** One forecast hour on a segment: the REST formula applied to the segment's legs. */
export const SegmentHourSchema = z
  .object({
    time: IsoTimeSchema,
    tailwind_kmh: KmhSchema,
    tailwind_kmh_rider_height: KmhSchema,
    crosswind_kmh: KmhSchema,
    effect: z.enum(['tailwind', 'headwind', 'crosswind', 'calm']),
    wind_speed_kmh: KmhSchema,
    wind_direction_deg: z.number(),
    wind_gusts_kmh: KmhSchema.nullable(),
    temperature_c: z.number().nullable(),
    precipitation_mm: z.number().nullable(),
    precipitation_probability_pct: z.number().nullable(),
    daylight: z.boolean().describe('Between civil dawn and dusk'),
  })
  .describe('A forecast hour on the segment, length-weighted; wind fields as in a Window; null: not forecast')
  .meta({ id: 'Hour' });

/**
 * The peak hour of a window: its wind only. The rest of a forecast hour
 * (effect, gusts, rain, temperature, daylight) is either implied by the
 * window (the peak is a daylight tailwind hour) or summed up in its weather,
 * so a window does not repeat a whole hour.
 */
export const PeakSchema = z
  .object({
    time: IsoTimeSchema,
    tailwind_kmh: KmhSchema,
    tailwind_kmh_rider_height: KmhSchema,
    crosswind_kmh: KmhSchema,
    wind_speed_kmh: KmhSchema,
    wind_direction_deg: z.number(),
  })
  .describe('The hour with the strongest tailwind');

export const DaylightSchema = z
  .object({ civil_dawn: IsoTimeSchema.nullable(), civil_dusk: IsoTimeSchema.nullable() })
  .nullable()
  .describe('Civil dawn and dusk around the window; null when it runs into the night');

export const WindowWeatherSchema = z.object({
  max_precipitation_mm: z.number().nullable(),
  max_precipitation_probability_pct: z.number().nullable(),
  min_temperature_c: z.number().nullable(),
  max_temperature_c: z.number().nullable(),
  max_gusts_kmh: KmhSchema.nullable(),
});

export const TailwindWindowSchema = z
  .object({
    start: IsoTimeSchema,
    end: IsoTimeSchema,
    hours: z.int().min(1),
    peak: PeakSchema,
    mean_tailwind_kmh: KmhSchema,
    mean_tailwind_kmh_rider_height: KmhSchema,
    daylight: DaylightSchema,
    weather: WindowWeatherSchema,
    flags: z.array(RideFlagSchema).describe('What is marginal: pass it on'),
  })
  .describe(`Best rideable tailwind window in 72 h (${RIDEABLE_RULE}). ${WIND_FIELDS}`)
  .meta({ id: 'Window' });

export const WindowStatusSchema = z
  .enum([
    'found',
    'no_tailwind',
    'dark',
    'wet',
    'gusty',
    'wet_or_gusty',
    'no_forecast',
  ] as const satisfies readonly (WindowStatus | 'no_forecast')[])
  .describe('Why best_window is null (dark: include_darkness: true for a rider with lights)')
  .meta({ id: 'WindowStatus' });

export const IncludeDarknessSchema = z
  .boolean()
  .default(false)
  .describe('Also offer night hours, for a rider with lights');

export const ForecastInfoSchema = z
  .object({
    source: z.enum(['open-meteo', 'demo']),
    issued_at: IsoTimeSchema,
    horizon_hours: z.int(),
    stale: z.boolean(),
    note: z.string().nullable(),
    unusable_hours: z.int().min(0),
  })
  .describe('source demo: synthetic weather, NOT a forecast: tell the user; note: pass it on')
  .meta({ id: 'Forecast' });

/** A Pro-only detail withheld from this caller, with how to get it. */
export const LockedFeatureSchema = z
  .object({
    feature: z.string(),
    description: z.string(),
    plans: z.array(z.string()),
    how_to_unlock: z.string(),
    pricing_url: z.url(),
  })
  .describe('Withheld: Pro only')
  .meta({ id: 'Locked' });

export const AttributionSchema = z.array(z.string()).describe('Credits to show with the data');
