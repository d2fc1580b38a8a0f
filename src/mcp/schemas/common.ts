import { z } from 'zod';
import { PRO_ONLY } from '../json-schema.ts';
import { WIND_HEIGHT_FACTOR } from '../../core/power-model.ts';
import {
  FLAG_WORDS,
  GUST_LIMIT_KMH,
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

/**
 * The same instant as a UTC time beside it, on the wall clock of the place:
 * what `*_local` means is said once, in the server's instructions and the
 * description of the shape that holds such fields.
 */
export const LocalTimeSchema = z.iso.datetime({ offset: true });

export const TimeZoneSchema = z.string().describe('IANA zone of *_local');

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

/**
 * What each flag means, in the words the answers explain them with
 * (`FLAG_WORDS`): said once per session in the server's instructions, not in
 * every schema.
 */
export const FLAG_RULES = Object.entries(FLAG_WORDS)
  .map(([flag, words]) => `${flag}: ${words}`)
  .join('; ');

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
  .describe('A forecast hour, length-weighted; winds as in Window')
  .meta({ id: 'Hour' });

/**
 * The peak hour of a window: its wind only. The rest of a forecast hour
 * (effect, gusts, rain, temperature, daylight) is either implied by the
 * window (the peak is a daylight tailwind hour) or summed up in its weather,
 * so a window does not repeat a whole hour.
 */
export const PeakSchema = SegmentHourSchema.pick({
  time: true,
  tailwind_kmh: true,
  tailwind_kmh_rider_height: true,
  crosswind_kmh: true,
  wind_speed_kmh: true,
  wind_direction_deg: true,
})
  .extend({ time_local: LocalTimeSchema })
  .describe('The hour with the strongest tailwind');

/** Civil dawn and dusk of a day; null where polar day or night leaves none. */
export const CivilTwilightSchema = z.object({
  civil_dawn: IsoTimeSchema.nullable(),
  civil_dusk: IsoTimeSchema.nullable(),
});

export const DaylightSchema = CivilTwilightSchema.nullable().describe(
  'Civil dawn and dusk around it; null at night',
);

export const WindowWeatherSchema = z.object({
  max_precipitation_mm: z.number().nullable(),
  max_precipitation_probability_pct: z.number().nullable(),
  min_temperature_c: z.number().nullable(),
  max_temperature_c: z.number().nullable(),
  max_gusts_kmh: KmhSchema.nullable(),
});

/**
 * The chance of a tailwind over a window, from the ensemble named in the
 * answer's `ensemble` object (one per answer, not per window).
 */
export const ChanceSchema = z
  .object({
    pct: z.int().min(0).max(100),
    words: z.enum(['likely', 'about even', 'unlikely']),
    p10_kmh: KmhSchema,
    p50_kmh: KmhSchema,
    p90_kmh: KmhSchema,
  })
  .nullable()
  .describe('Pro: see ensemble');

/** Where the answer's chances come from, and how to read them: one object per answer. */
export const EnsembleInfoSchema = z
  .object({
    source: z.enum(['open-meteo', 'demo']),
    model: z.string(),
    members: z.int(),
    run_at: IsoTimeSchema.nullable(),
    min_tailwind_kmh: KmhSchema.nullable(),
    stale: z.boolean(),
    note: z.string(),
  })
  .nullable()
  .describe('Pro: chance.pct is the share of members reaching min_tailwind_kmh, not a probability');

export const TailwindWindowSchema = z
  .object({
    start: IsoTimeSchema,
    end: IsoTimeSchema,
    time_zone: TimeZoneSchema,
    start_local: LocalTimeSchema,
    end_local: LocalTimeSchema,
    peak: PeakSchema,
    mean_tailwind_kmh: KmhSchema,
    mean_tailwind_kmh_rider_height: KmhSchema,
    daylight: DaylightSchema,
    weather: WindowWeatherSchema,
    flags: z.array(RideFlagSchema).describe('What is marginal: pass it on'),
    chance: ChanceSchema.optional().meta(PRO_ONLY),
  })
  .describe(`Best rideable tailwind window in 72 h. ${WIND_FIELDS}`)
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
  .describe('Why no best_window')
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
  .describe('demo: synthetic, NOT a forecast: tell the user; pass the note on')
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
  .meta({ id: 'Locked' });

export const AttributionSchema = z.array(z.string());
