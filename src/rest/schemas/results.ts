import * as z from 'zod';
import { API_VERSION, SERVICE_VERSION } from '../../core/service-facts.ts';
import { UtcTimeSchema as UtcInstantSchema } from './forecast-result.ts';
import { COMPASS_POINTS } from '../../core/compass.ts';
import { ignoredDirectionHint } from '../../core/direction.ts';
import { PARAMETERS } from '../../core/parameters.ts';
import { TAILWIND_FORMULA } from '../../core/wind.ts';

/** Response of `GET /v1/tailwind`; field order follows the spec's table. */
export const TailwindResultSchema = z
  .object({
    signed_tailwind_kmh: z.number().meta({
      description: 'Wind component along travel, km/h, rounded to 0.1. Positive = tailwind.',
    }),
    crosswind_kmh: z.number().min(0).meta({
      description: 'Magnitude of the across-travel component, km/h, rounded to 0.1.',
    }),
    effect: z.enum(['tailwind', 'headwind', 'crosswind', 'calm']).meta({
      description:
        '`calm` when the wind speed rounds to 0.0 km/h; `crosswind` when the rounded ' +
        'along-track component is under 1 km/h in magnitude; otherwise its sign.',
    }),
    segment_bearing_deg: z.number().min(0).max(360).meta({
      description: 'The bearing used; computed from the coordinates when they were given.',
    }),
    wind_speed_kmh: z.number().meta({ description: 'Echo of the input.' }),
    wind_direction_deg: z.number().meta({ description: 'Echo of the input.' }),
    formula: z.literal(TAILWIND_FORMULA).meta({ description: 'The formula applied.' }),
    hint: z
      .string()
      .optional()
      .meta({
        description:
          'Only when a direction parameter that was sent was ignored: which one and why. Four ' +
          'coordinates win over segment_bearing_deg; fewer than four beside segment_bearing_deg are not ' +
          'used. Added in release 1.6.0, an optional field within API version 1.1.0.',
        example: ignoredDirectionHint({ segment_bearing_deg: 80, start_lat: 45 }),
      }),
  })
  .meta({
    id: 'TailwindResult',
    example: {
      signed_tailwind_kmh: 19.7,
      crosswind_kmh: 3.5,
      effect: 'tailwind',
      segment_bearing_deg: 80,
      wind_speed_kmh: PARAMETERS.wind_speed_kmh.example,
      wind_direction_deg: PARAMETERS.wind_direction_deg.example,
      formula: TAILWIND_FORMULA,
    },
  });

/** Response of `GET /v1/bearing`. */
export const BearingResultSchema = z
  .object({
    bearing_deg: z.number().min(0).lt(360).meta({
      description: 'Initial great-circle bearing in [0, 360), rounded to 0.01. 0 = north.',
    }),
    compass: z.enum(COMPASS_POINTS).meta({ description: 'Eight-point direction.' }),
  })
  .meta({ id: 'BearingResult', example: { bearing_deg: 38.06, compass: 'NE' } });

/** One data source of the server, as `/health` reports it. */
export const HealthSourceSchema = z
  .object({
    name: z.enum(['forecast', 'ensemble', 'geocoder', 'discovery', 'elevation']),
    mode: z.enum(['live', 'demo', 'off']).meta({
      description: '`live`: a service at `url`; `demo`: offline (synthetic weather, shipped data); `off`.',
    }),
    provider: z.string().meta({ description: 'Who answers, in words.' }),
    url: z
      .string()
      .nullable()
      .meta({ description: 'The address a live source is asked at; null otherwise.' }),
    state: z.enum(['answering', 'unreachable', 'failing', 'not_asked']).meta({
      description:
        'How its last request went on this instance (the start-up check asks each live source once): ' +
        '`unreachable` is no network or DNS at the server; `failing` an answer that was an error; ' +
        '`not_asked` for demo sources and live ones not asked yet.',
    }),
    last_ok_at: UtcInstantSchema.nullable(),
    last_failure_at: UtcInstantSchema.nullable(),
    last_failure: z.string().nullable().meta({ description: 'The last failure in one sentence.' }),
  })
  .meta({ id: 'HealthSource' });

/** Response of `GET /health`. */
export const HealthSchema = z
  .object({
    status: z
      .literal('ok')
      .meta({ description: 'Always `ok` while the API serves requests; see `sources`.' }),
    version: z.string().meta({
      description: 'The service version: the release of the whole service, as the changelog names it.',
    }),
    api_version: z
      .string()
      .optional()
      .meta({
        description:
          'The REST contract’s version (the OpenAPI `info.version`), which changes only when a path, field ' +
          'or error does. Added in release 1.8.0.',
      }),
    sources: z
      .array(HealthSourceSchema)
      .optional()
      .meta({
        description:
          'Each data source: live or demo, its address, and whether it answered lately on this instance. ' +
          'Added in release 1.8.0.',
      }),
  })
  .meta({ id: 'Health', example: { status: 'ok', version: SERVICE_VERSION, api_version: API_VERSION } });

export type TailwindResult = z.output<typeof TailwindResultSchema>;
export type BearingResult = z.output<typeof BearingResultSchema>;
export type Health = z.output<typeof HealthSchema>;
export type HealthSource = z.output<typeof HealthSourceSchema>;
