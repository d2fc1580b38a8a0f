import * as z from 'zod';

/**
 * The pieces every data answer of the REST API shares (`/v1/wind`, `/v1/segments`,
 * `/v1/segments/{id}`), declared once so the three answers and their docs tables agree.
 */

/** An instant in UTC, to the second. */
export const UtcTimeSchema = z.iso.datetime().meta({ description: 'ISO 8601, UTC.' });

/** The same instant on the wall clock of the answer's `time_zone`. */
export const LocalTimeSchema = z.iso
  .datetime({ offset: true })
  .meta({ description: "ISO 8601 with the offset of the answer's time_zone." });

/** An IANA zone, where the answer's local times are read. */
export const TimeZoneSchema = z
  .string()
  .meta({ description: 'IANA time zone at the point (e.g. Europe/Paris).', example: 'Europe/Paris' });

/** A point of ours in an answer: plain WGS 84 degrees, named as the query names them. */
export const LatLonSchema = z
  .object({
    lat: z.number().meta({ description: 'Latitude, decimal degrees (WGS 84).' }),
    lon: z.number().meta({ description: 'Longitude, decimal degrees (WGS 84).' }),
  })
  .meta({ id: 'LatLon' });

/**
 * Which forecast an answer stands on. `demo` weather is synthetic: it says so in `demo`
 * and in `attribution`, so a page that shows only the credit line still labels it.
 */
export const ForecastSourceSchema = z
  .object({
    source: z.enum(['open-meteo', 'demo']).meta({ description: 'The forecast provider.' }),
    demo: z.boolean().meta({ description: 'True for synthetic demo weather: not a forecast.' }),
    issued_at: UtcTimeSchema.meta({ description: 'When the forecast was obtained (or generated), UTC.' }),
    stale: z.boolean().meta({
      description: 'True when served from the cache past its freshness because the provider failed.',
    }),
    attribution: z.string().meta({ description: 'The credit line to show with the figures.' }),
  })
  .meta({ id: 'ForecastSource' });

/**
 * Why an answer about segments carries no wind: the forecast could not be read and no older one
 * stood in. The same two outages `/v1/wind` answers with a problem of that code (see `code`).
 */
export const WindUnavailableSchema = z
  .object({
    code: z.enum(['forecast_unreachable', 'forecast_unavailable']).meta({
      description:
        '`forecast_unreachable`: this server cannot reach the weather service (no network or DNS); ' +
        '`forecast_unavailable`: the service is busy. The problem codes `/v1/wind` answers with.',
    }),
    reason: z
      .string()
      .meta({ description: 'One sentence to show a reader, naming the service and what to do.' }),
    retry_at: UtcTimeSchema.nullable().meta({
      description: 'When a busy service is worth asking again; null when unreachable.',
    }),
  })
  .meta({ id: 'WindUnavailable' });

/**
 * The forecast facts of an answer about segments, which answers even when no forecast could be read:
 * the segments, lines, figures and profile need no weather. Then `issued_at` is null, `unavailable`
 * says why, and every segment's `window_status` is `no_forecast`. Added in release 1.8.0.
 */
export const SegmentForecastSchema = ForecastSourceSchema.extend({
  issued_at: UtcTimeSchema.nullable().meta({
    description: 'When the forecast was obtained (or generated), UTC; null when none could be read.',
  }),
  unavailable: WindUnavailableSchema.optional().meta({
    description:
      'Only when no forecast could be read: why, in one sentence. The answer still lists the segments.',
  }),
}).meta({ id: 'SegmentForecast' });

/** A line as [longitude, latitude] pairs (GeoJSON order, ready for a map). */
export const LineSchema = z
  .array(z.tuple([z.number(), z.number()]))
  .meta({ description: 'Points as [longitude, latitude] (GeoJSON order), 5 decimals.' });

/** One forecast hour at a cell, in the units of the query parameters of `/v1/tailwind`. */
export const WindHourSchema = z
  .object({
    time: UtcTimeSchema.meta({ description: 'Start of the hour, UTC, on the hour.' }),
    wind_speed_kmh: z.number().min(0).meta({ description: 'Mean wind at 10 m, km/h.' }),
    wind_direction_deg: z
      .number()
      .min(0)
      .max(360)
      .meta({ description: 'Direction the wind blows FROM, degrees (0 = north).' }),
    wind_gusts_kmh: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'Gusts at 10 m, km/h; null when unknown.' }),
    temperature_c: z.number().nullable().meta({ description: 'Air at 2 m, °C; null when unknown.' }),
    precipitation_mm: z
      .number()
      .min(0)
      .nullable()
      .meta({ description: 'Rain, showers and snow during the hour, mm; null when unknown.' }),
    precipitation_probability_pct: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: 'Chance of more than 0.1 mm during the hour, %; null when unknown.' }),
  })
  .meta({ id: 'WindHour' });

/** Response of `GET /v1/wind`: the hours of one forecast cell, for judging a route in the browser. */
export const WindForecastResultSchema = z
  .object({
    cell: LatLonSchema.extend({
      size_deg: z
        .number()
        .meta({ description: 'The grid step, degrees: points in one cell share a forecast.' }),
    }).meta({
      description: 'The point that was forecast: the centre of the grid cell holding the query point.',
    }),
    time_zone: TimeZoneSchema,
    forecast: ForecastSourceSchema,
    hours: z
      .array(WindHourSchema)
      .max(72)
      .meta({ description: 'Up to 72 hours from the current hour, oldest first.' }),
  })
  .meta({ id: 'WindForecastResult' });

export type ForecastSourceInfo = z.output<typeof ForecastSourceSchema>;
export type SegmentForecastInfo = z.output<typeof SegmentForecastSchema>;
export type WindUnavailable = z.output<typeof WindUnavailableSchema>;
export type WindHourResult = z.output<typeof WindHourSchema>;
export type WindForecastResult = z.output<typeof WindForecastResultSchema>;
