import { z } from 'zod';
import { WIND_HEIGHT_FACTOR } from '../../core/power-model.ts';
import {
  FLAG_WORDS,
  GUST_LIMIT_KMH,
  type RideFlag,
  WET_PRECIPITATION_MM,
  WET_PROBABILITY_PCT,
} from '../../core/rideable.ts';
import type { WindowStatus } from '../../core/tailwind-window.ts';

/** Times are ISO 8601 in UTC, to the second. */
export const IsoTimeSchema = z.iso.datetime().describe('ISO 8601 time, UTC');

/** The same instant as a UTC time beside it, on the wall clock of the place. */
export const LocalTimeSchema = z.iso
  .datetime({ offset: true })
  .describe('The same time on the local clock of the place, ISO 8601 with its UTC offset');

export const TimeZoneSchema = z
  .string()
  .describe('IANA time zone of the place (e.g. "Europe/Paris"), from its coordinates; local times are in it');

export const LatitudeSchema = z
  .number()
  .min(-90, 'latitude must be between -90 and 90')
  .max(90, 'latitude must be between -90 and 90')
  .describe('Latitude, decimal degrees (WGS 84)');

export const LongitudeSchema = z
  .number()
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180')
  .describe('Longitude, decimal degrees (WGS 84)');

export const PointSchema = z.object({ latitude: LatitudeSchema, longitude: LongitudeSchema });

const KmhSchema = z.number().describe('km/h, rounded to 0.1');

/**
 * Wind at rider height: the 10 m figure beside it times the log-profile
 * factor the record estimates use (model.wind_height_factor, 0.673).
 */
const RiderHeightKmhSchema = (what: string) =>
  KmhSchema.describe(
    `${what} at rider height (1.5 m): the 10 m figure × ${WIND_HEIGHT_FACTOR.toFixed(3)} (log wind profile, ` +
      'open country). What the rider feels; the 10 m figure is what forecasts and weather apps show',
  );

const RideFlagSchema = z
  .enum(['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot'] as const satisfies readonly RideFlag[])
  .describe(
    Object.entries(FLAG_WORDS)
      .map(([flag, words]) => `${flag}: ${words}`)
      .join('; '),
  );

/** One forecast hour on a segment: the REST formula applied to the segment's legs. */
export const SegmentHourSchema = z.object({
  time: IsoTimeSchema.describe('Start of the forecast hour, UTC'),
  tailwind_kmh: KmhSchema.describe(
    'Effective along-track wind at 10 m (forecast height): positive = tailwind, negative = headwind',
  ),
  tailwind_kmh_rider_height: RiderHeightKmhSchema('tailwind_kmh'),
  crosswind_kmh: KmhSchema.describe('Mean crosswind magnitude over the segment, at 10 m'),
  crosswind_kmh_rider_height: RiderHeightKmhSchema('crosswind_kmh'),
  effect: z.enum(['tailwind', 'headwind', 'crosswind', 'calm']).describe('Judged on the 10 m figures'),
  wind_speed_kmh: KmhSchema.describe('10 m wind speed'),
  wind_speed_kmh_rider_height: RiderHeightKmhSchema('wind_speed_kmh'),
  wind_direction_deg: z.number().describe('Direction the wind blows FROM, degrees (0 = north)'),
  wind_gusts_kmh: KmhSchema.nullable().describe(
    'Gusts at 10 m; null when the forecast has none. Not scaled to rider height: the log profile describes ' +
      'the mean wind, not gusts',
  ),
  temperature_c: z.number().nullable().describe('Air temperature at 2 m, °C; null when unknown'),
  precipitation_mm: z
    .number()
    .nullable()
    .describe('Rain or snow (water) during the hour, mm; null when unknown'),
  precipitation_probability_pct: z
    .number()
    .nullable()
    .describe('Chance of more than 0.1 mm during the hour, percent; null when unknown'),
  daylight: z.boolean().describe('The whole hour is between civil dawn and civil dusk at the segment'),
});

export const DaylightSchema = z
  .object({
    civil_dawn: IsoTimeSchema.nullable().describe('Civil dawn before the window; null in polar day'),
    civil_dusk: IsoTimeSchema.nullable().describe('Civil dusk after the window; null in polar day'),
  })
  .nullable()
  .describe(
    'The daylight the window lies in, at the segment: civil twilight (sun 6° below the horizon) with a ' +
      'quarter-degree margin, so the sun is at most 5.75° below it; null when the ' +
      'window runs into darkness (include_darkness)',
  );

export const WindowWeatherSchema = z.object({
  max_precipitation_mm: z.number().nullable().describe('Wettest hour of the window, mm'),
  max_precipitation_probability_pct: z.number().nullable(),
  min_temperature_c: z.number().nullable(),
  max_temperature_c: z.number().nullable(),
  max_gusts_kmh: KmhSchema.nullable().describe('Strongest gust in the window, at 10 m'),
});

/**
 * The chance of a tailwind over a window, from the ensemble named in the
 * answer's `ensemble` object (one per answer, not per window).
 */
export const ChanceSchema = z
  .object({
    pct: z
      .int()
      .min(0)
      .max(100)
      .describe(
        'Share of ensemble members, percent, whose mean tailwind over the window is at least ' +
          'ensemble.min_tailwind_kmh. A member frequency, NOT a calibrated probability',
      ),
    words: z
      .enum(['likely', 'about even', 'unlikely'])
      .describe('likely: 67% or more; unlikely: 33% or less; about even between (IPCC bands)'),
    p10_kmh: KmhSchema.describe('10th percentile of the members’ mean tailwind over the window, at 10 m'),
    p50_kmh: KmhSchema.describe('Median of the members’ mean tailwind, at 10 m'),
    p90_kmh: KmhSchema.describe('90th percentile, at 10 m; negative = headwind'),
  })
  .nullable()
  .describe(
    'Pro: the chance of a tailwind from ensemble members; null when an hour of the window lacks members ' +
      '(no probability rather than a guess)',
  );

/** Where the answer's chances come from: one object per answer. */
export const EnsembleInfoSchema = z
  .object({
    source: z.enum(['open-meteo', 'demo']).describe('demo: synthetic members, NOT real weather'),
    model: z.string().describe('Ensemble model, e.g. ecmwf_ifs025 (ECMWF IFS 0.25°)'),
    members: z.int().describe('Members counted, control run included'),
    run_at: IsoTimeSchema.nullable().describe('Start of the model run; null when the provider did not say'),
    min_tailwind_kmh: KmhSchema.nullable().describe(
      'The mean tailwind every window chance in this answer is of, at 10 m; null for route starts, whose ' +
        'chance is of gaining time against still air',
    ),
    stale: z.boolean(),
    note: z.string().describe('How to read the chances; pass it on'),
  })
  .nullable()
  .describe('Pro: the ensemble behind `chance`; null when it could not be read (no chance is shown then)');

export const TailwindWindowSchema = z
  .object({
    start: IsoTimeSchema.describe('Start of the first hour of the window'),
    end: IsoTimeSchema.describe('End of the last hour of the window'),
    time_zone: TimeZoneSchema,
    start_local: LocalTimeSchema,
    end_local: LocalTimeSchema,
    hours: z.int().min(1),
    peak: SegmentHourSchema.extend({ time_local: LocalTimeSchema }).describe(
      'The hour with the strongest tailwind',
    ),
    mean_tailwind_kmh: KmhSchema.describe('Mean effective tailwind over the window, at 10 m'),
    mean_tailwind_kmh_rider_height: RiderHeightKmhSchema('mean_tailwind_kmh'),
    daylight: DaylightSchema,
    weather: WindowWeatherSchema,
    flags: z
      .array(RideFlagSchema)
      .describe('What is marginal about the window (empty = nothing); pass these on to the rider'),
    chance: ChanceSchema.optional(),
  })
  .describe(
    'Best rideable tailwind window in the next 72 hours: hours in daylight at the segment, with under ' +
      `${WET_PRECIPITATION_MM} mm of rain and under a ${WET_PROBABILITY_PCT}% chance of it, and gusts under ` +
      `${GUST_LIMIT_KMH} km/h; the run of consecutive such hours around the peak in which every hour is a ` +
      'tailwind of at least 1 km/h and at least half the peak',
  );

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
  .describe(
    'found: see best_window; no_tailwind: no hour in 72 h is a tailwind; dark: every tailwind hour is ' +
      'between civil dusk and dawn (include_darkness: true offers them to a rider with lights); wet, gusty, ' +
      'wet_or_gusty: every daylight tailwind hour has too much rain, too strong gusts, or one of the two; ' +
      'no_forecast: no data here',
  );

export const IncludeDarknessSchema = z
  .boolean()
  .default(false)
  .describe(
    'Offer hours between civil dusk and civil dawn too, for a rider with lights (default false: daylight only)',
  );

export const ForecastInfoSchema = z.object({
  source: z
    .enum(['open-meteo', 'demo'])
    .describe('open-meteo: real forecast; demo: synthetic weather for offline use, NOT real'),
  issued_at: IsoTimeSchema.describe('When the forecast was obtained (the oldest one used)'),
  horizon_hours: z.int().describe('Hours of forecast considered, from the current hour'),
  stale: z.boolean().describe('True when the weather service failed and an older cached forecast was used'),
  note: z.string().nullable().describe('A caveat to pass on to the user, if any'),
  unusable_hours: z
    .int()
    .min(0)
    .describe(
      'Forecast hours dropped at the worst location because the weather service sent impossible or ' +
        'missing values (e.g. negative speeds, gusts below the wind); 0 normally',
    ),
});

/** A Pro-only detail withheld from this caller, with how to get it. */
export const LockedFeatureSchema = z.object({
  feature: z.string(),
  description: z.string(),
  plans: z.array(z.string()).describe('Plan ids that include it, from the plan catalog'),
  how_to_unlock: z.string(),
  pricing_url: z.url(),
});

export const AttributionSchema = z.array(z.string()).describe('Credits to show with the data');
