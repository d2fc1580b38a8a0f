import { z } from 'zod';

/** Times are ISO 8601 in UTC, to the second. */
export const IsoTimeSchema = z.iso.datetime().describe('ISO 8601 time, UTC');

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

/** One forecast hour on a segment: the REST formula applied to the segment's legs. */
export const SegmentHourSchema = z.object({
  time: IsoTimeSchema.describe('Start of the forecast hour, UTC'),
  tailwind_kmh: KmhSchema.describe('Effective along-track wind: positive = tailwind, negative = headwind'),
  crosswind_kmh: KmhSchema.describe('Mean crosswind magnitude over the segment'),
  effect: z.enum(['tailwind', 'headwind', 'crosswind', 'calm']),
  wind_speed_kmh: KmhSchema.describe('10 m wind speed'),
  wind_direction_deg: z.number().describe('Direction the wind blows FROM, degrees (0 = north)'),
  wind_gusts_kmh: KmhSchema.nullable().describe('Gusts; null when the forecast has none'),
});

export const TailwindWindowSchema = z
  .object({
    start: IsoTimeSchema.describe('Start of the first hour of the window'),
    end: IsoTimeSchema.describe('End of the last hour of the window'),
    hours: z.int().min(1),
    peak: SegmentHourSchema.describe('The hour with the strongest tailwind'),
    mean_tailwind_kmh: KmhSchema.describe('Mean effective tailwind over the window'),
  })
  .describe(
    'Best tailwind window in the next 72 hours: the run of consecutive hours around the peak in which ' +
      'every hour is a tailwind of at least 1 km/h and at least half the peak',
  );

export const WindowStatusSchema = z
  .enum(['found', 'no_tailwind', 'no_forecast'])
  .describe('found: see best_window; no_tailwind: no hour in 72 h is a tailwind; no_forecast: no data here');

export const ForecastInfoSchema = z.object({
  source: z
    .enum(['open-meteo', 'demo'])
    .describe('open-meteo: real forecast; demo: synthetic weather for offline use, NOT real'),
  issued_at: IsoTimeSchema.describe('When the forecast was obtained (the oldest one used)'),
  horizon_hours: z.int().describe('Hours of forecast considered, from the current hour'),
  stale: z.boolean().describe('True when the weather service failed and an older cached forecast was used'),
  note: z.string().nullable().describe('A caveat to pass on to the user, if any'),
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
