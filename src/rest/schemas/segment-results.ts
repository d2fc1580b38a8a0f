import * as z from 'zod';
import { MAX_ALTERNATIVES, NEAREST_BEYOND_RADIUS, RIDE_REACH_M } from '../../core/place-list-bounds.ts';
import { MAX_LIMIT } from './data-queries.ts';
import {
  LatLonSchema,
  LineSchema,
  LocalTimeSchema,
  SegmentForecastSchema,
  TimeZoneSchema,
  UtcTimeSchema,
} from './forecast-result.ts';

/** Most points of a segment's line in a list (`/v1/segments`): enough for a small map. */
export const LIST_LINE_POINTS = 40;

/** Most points of a segment's line on its own page (`/v1/segments/{id}`). */
export const DETAIL_LINE_POINTS = 200;

/**
 * Most points of a segment's elevation profile: a chart a few hundred pixels
 * wide shows no more, and 120 heights are two requests to Open-Meteo's
 * elevation API (100 a request).
 */
export const PROFILE_POINTS = 120;

/** How a catalog segment was made: hand-traced with the catalog, or found from map data and heights. */
export const SegmentSourceSchema = z.enum(['built-in', 'discovered']).meta({
  description:
    '`built-in`: traced with the catalog (CC0); `discovered`: found from OpenStreetMap roads and a ' +
    'height model (ODbL). The plain-words account is in `source_note`.',
});

/** Why a list entry or a segment has no best window. */
export const WindowStatusSchema = z
  .enum(['found', 'no_tailwind', 'dark', 'wet', 'gusty', 'wet_or_gusty', 'no_forecast'])
  .meta({ description: '`found` when best_window is given; otherwise why there is none.' });

/**
 * The best rideable tailwind window in the next 72 hours: daylight hours with
 * rain and gusts under the limits, the run with the strongest mean tailwind.
 */
export const BestWindowSchema = z
  .object({
    start: UtcTimeSchema.meta({ description: 'First hour of the window, UTC.' }),
    start_local: LocalTimeSchema,
    end: UtcTimeSchema.meta({ description: 'End of the last hour of the window, UTC.' }),
    end_local: LocalTimeSchema,
    signed_tailwind_kmh: z
      .number()
      .meta({ description: 'Mean wind component along the segment over the window, km/h at 10 m.' }),
    peak_tailwind_kmh: z.number().meta({ description: 'Strongest hour of the window, km/h at 10 m.' }),
    min_temperature_c: z.number().nullable().meta({ description: 'Coldest hour, °C; null when unknown.' }),
    max_temperature_c: z.number().nullable().meta({ description: 'Warmest hour, °C; null when unknown.' }),
    flags: z
      .array(z.enum(['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot']))
      .meta({ description: 'What is marginal about the window (empty when nothing is).' }),
  })
  .meta({ id: 'BestWindow' });

/** Another place of the name, as the place search (shared with `find_tailwind_segments`) found it. */
const PlaceCandidateSchema = z.object({
  name: z.string().meta({ description: 'Name with country code, e.g. "Paris, US".' }),
  country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
  lat: z.number(),
  lon: z.number(),
  region: z.string().nullable().meta({ description: 'First-level region, when known.' }),
  kind: z.enum(['town', 'island', 'region', 'lake']),
});

export const ResolvedPlaceSchema = z
  .object({
    name: z.string().meta({ description: 'The place searched around.' }),
    country: z.string().optional().meta({ description: 'ISO 3166-1 alpha-2; absent for bare coordinates.' }),
    lat: z.number().meta({ description: 'Latitude of the point searched around.' }),
    lon: z.number().meta({ description: 'Longitude of the point searched around.' }),
    time_zone: TimeZoneSchema,
    region: z.string().nullable().meta({ description: 'First-level region, when known.' }),
    resolved_by: z.enum(['coordinates', 'segment', 'gazetteer', 'open-meteo']).meta({
      description: '`gazetteer`: GeoNames names shipped with the service; `open-meteo`: its geocoding.',
    }),
    ambiguous: z.boolean().meta({
      description: 'True when another place of this name (in alternatives) may be meant: ask the rider.',
    }),
    alternatives: z
      .array(PlaceCandidateSchema)
      .max(MAX_ALTERNATIVES.ambiguous)
      .meta({
        description:
          `Other places of the same name, best-known first: up to ${MAX_ALTERNATIVES.ambiguous} when ambiguous, ` +
          `else up to ${MAX_ALTERNATIVES.clear}; send one as lat and lon to pick it.`,
      }),
  })
  .meta({ id: 'ResolvedPlace' });

/** A segment in the list near a place. */
export const NearSegmentSchema = z
  .object({
    id: z.string().meta({ description: 'Catalog id, for `/v1/segments/{id}`.' }),
    name: z.string().meta({ description: 'Name, with the side or start where a climb has several.' }),
    source: SegmentSourceSchema,
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    distance_km: z.number().meta({ description: 'From the place to the segment start, km, 0.1.' }),
    within_radius: z.boolean().meta({
      description: 'False for the nearest segments beyond radius_km, listed only when none lies within it.',
    }),
    length_km: z.number().meta({ description: 'Length of the segment, km, 0.01.' }),
    bearing_deg: z.number().meta({ description: 'Start to end, degrees, 0.1.' }),
    avg_grade_pct: z.number().optional().meta({ description: 'Average grade, %; absent when not known.' }),
    elevation_gain_m: z.number().meta({ description: 'Metres climbed.' }),
    popularity_rank: z
      .int()
      .min(1)
      .meta({ description: '1 = best known; an editorial rank, no ride counts.' }),
    start: LatLonSchema,
    line: LineSchema.max(LIST_LINE_POINTS).meta({
      description: `The road, simplified to at most ${LIST_LINE_POINTS} points, as [longitude, latitude].`,
    }),
    best_window: BestWindowSchema.nullable(),
    window_status: WindowStatusSchema,
  })
  .meta({ id: 'NearSegment' });

/**
 * Response of `GET /v1/segments`: the segments near a place, bounded by the
 * query's `limit` (decision 0035), never by the MCP tools' byte budget.
 */
export const SegmentsNearResultSchema = z
  .object({
    place: ResolvedPlaceSchema,
    radius_km: z.number().meta({
      description:
        'The radius searched (a region, range, island or lake named alone widens it to its extent).',
    }),
    headline: z.string().meta({
      description:
        'The list in one line, as the site and the MCP tool head it: how many segments lie within radius_km, ' +
        'or that none does and how far the nearest beyond it are. Added in release 1.8.0.',
      example: 'No segment within 25 km of Girona, ES: the 3 nearest are 109–112 km away',
    }),
    forecast: SegmentForecastSchema,
    segments: z
      .array(NearSegmentSchema)
      .max(MAX_LIMIT)
      .meta({
        description:
          'Best known first, at most limit of them. With none within radius_km: the nearest beyond it, ' +
          `within ${RIDE_REACH_M / 1000} km, nearest first: up to ${NEAREST_BEYOND_RADIUS}, and no more than limit.`,
      }),
    mapping: z
      .string()
      .optional()
      .meta({ description: 'Whether the roads here are mapped for segments yet, when that matters.' }),
    attribution: z.array(z.string()).meta({ description: 'Credit lines to show with the answer.' }),
  })
  .meta({ id: 'SegmentsNearResult' });

/** One forecast hour on a segment: the wind split along and across the road (length-weighted). */
export const SegmentHourSchema = z
  .object({
    time: UtcTimeSchema.meta({ description: 'Start of the hour, UTC.' }),
    time_local: LocalTimeSchema,
    signed_tailwind_kmh: z
      .number()
      .meta({ description: 'Along the segment, km/h at 10 m; positive = tailwind.' }),
    crosswind_kmh: z.number().min(0).meta({ description: 'Across the segment, km/h at 10 m.' }),
    wind_speed_kmh: z.number().min(0).meta({ description: 'Mean wind at 10 m, km/h.' }),
    wind_direction_deg: z.number().meta({ description: 'Direction the wind blows FROM, degrees.' }),
    wind_gusts_kmh: z.number().nullable().meta({ description: 'Gusts, km/h; null when unknown.' }),
    precipitation_mm: z.number().nullable().meta({ description: 'During the hour, mm; null when unknown.' }),
    precipitation_probability_pct: z.number().nullable().meta({ description: '%; null when unknown.' }),
    temperature_c: z.number().nullable().meta({ description: '°C at 2 m; null when unknown.' }),
    daylight: z.boolean().meta({ description: 'Between civil dawn and dusk at the segment.' }),
  })
  .meta({ id: 'SegmentHour' });

/** One catalog segment on its own page: its figures, its road and how it was made. */
export const SegmentDetailSchema = z
  .object({
    id: z.string().meta({ description: 'Catalog id, as in the path.' }),
    name: z.string().meta({ description: 'Name, with the side or start where a climb has several.' }),
    source: SegmentSourceSchema,
    source_note: z.string().meta({
      description:
        'How the entry was made, in full (for a discovered one: its ways, data date and climb rule).',
    }),
    made_from: z.string().meta({
      description:
        'Where it comes from in one sentence for a rider, e.g. "From OpenStreetMap (2013) and NASA SRTM ' +
        'heights". Added in release 1.8.0.',
    }),
    provenance: z
      .object({
        osm_way_ids: z.array(z.int()).meta({ description: 'The OpenStreetMap ways the line follows.' }),
        osm_data_date: z
          .string()
          .nullable()
          .meta({ description: 'The OpenStreetMap data’s timestamp, when known.' }),
        osm_source: z
          .string()
          .meta({ description: 'Where the OpenStreetMap data was read (an extract, Overpass).' }),
        elevation_source: z
          .string()
          .meta({ description: 'The height model the profile and figures come from.' }),
        ranked_by: z.string().nullable().meta({ description: 'What its rank rests on, in plain words.' }),
      })
      .optional()
      .meta({
        description:
          'Discovered segments only: the data behind them (ODbL asks that it be said). Added in release 1.8.0.',
      }),
    license: z.string().meta({ description: 'Licence of the segment data (SPDX id).' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    length_km: z.number().meta({ description: 'Length, km, 0.01.' }),
    bearing_deg: z.number().meta({ description: 'Start to end, degrees, 0.1.' }),
    avg_grade_pct: z.number().optional().meta({ description: 'Average grade, %.' }),
    max_grade_pct: z.number().optional().meta({ description: 'Steepest 100 m, %, where heights are known.' }),
    elevation_gain_m: z.number().meta({ description: 'Metres climbed.' }),
    start: LatLonSchema,
    end: LatLonSchema,
    line: LineSchema.max(DETAIL_LINE_POINTS).meta({
      description: `The road, simplified to at most ${DETAIL_LINE_POINTS} points, as [longitude, latitude].`,
    }),
    profile: z
      .array(
        z.object({
          distance_km: z.number().meta({ description: 'From the start along the road, km, 0.01.' }),
          elevation_m: z.number().meta({ description: 'Height above sea level, whole metres.' }),
        }),
      )
      .max(PROFILE_POINTS)
      .nullable()
      .meta({
        description:
          `Height along the road at up to ${PROFILE_POINTS} evenly spaced points, from NASA SRTM 3″ tiles ` +
          'shipped with the service (Andorra and Monaco), or, on a server set to discover segments online, ' +
          "from Open-Meteo's elevation API (Copernicus DEM GLO-90) elsewhere. null where no heights could be " +
          'read: outside the shipped tiles on an offline server, or while the elevation service fails.',
      }),
  })
  .meta({ id: 'SegmentDetail' });

/** Response of `GET /v1/segments/{id}`: one catalog segment, its 72 hours and its best window. */
export const SegmentDetailResultSchema = z
  .object({
    segment: SegmentDetailSchema,
    time_zone: TimeZoneSchema,
    forecast: SegmentForecastSchema,
    hours: z.array(SegmentHourSchema).max(72).meta({ description: 'Up to 72 hours from the current hour.' }),
    best_window: BestWindowSchema.nullable(),
    window_status: WindowStatusSchema,
    ensemble: z
      .object({
        locked: z.literal(true),
        note: z.string().meta({ description: 'What the ensemble adds and how a Pro rider gets it.' }),
      })
      .meta({ description: 'The ensemble spread is a Pro feature; the keyless API says how to get it.' }),
    attribution: z.array(z.string()).meta({ description: 'Credit lines to show with the answer.' }),
  })
  .meta({ id: 'SegmentDetailResult' });

export type BestWindow = z.output<typeof BestWindowSchema>;
export type NearSegment = z.output<typeof NearSegmentSchema>;
export type SegmentsNearResult = z.output<typeof SegmentsNearResultSchema>;
export type SegmentHour = z.output<typeof SegmentHourSchema>;
export type SegmentDetailResult = z.output<typeof SegmentDetailResultSchema>;
