/**
 * The REST data endpoints' answers in the REST API's shapes, from the use
 * cases' results (`src/service`): the place as the place search resolved
 * it, each segment's hours and best window as `windOnSegment` judges them,
 * the credits and headline of `answer-words.ts` (decisions 0022, 0028, 0035, 0048). Nothing
 * here decides anything about wind, windows, places or ranking: that stays
 * in the one place each rule lives.
 */
import { localIso } from '../core/local-time.ts';
import { roundHalfAway } from '../core/round.ts';
import { mapLine } from '../core/route/route-simplify.ts';
import type { ProfilePoint } from '../data/segments/segment-profile.ts';
import type { Segment } from '../data/segments/types.ts';
import type { ForecastSourceId } from '../data/forecast/types.ts';
import type { ListedSegment } from '../service/segments-near.ts';
import type { SegmentLocation } from '../service/segments-around.ts';
import type { ResolvedPlace } from '../service/place.ts';
import type { ForecastRead } from '../service/segment-forecast.ts';
import type { ServiceError } from '../service/service-error.ts';
import { attributionFor, listHeadline, madeFrom } from '../service/answer-words.ts';
import { isoTime } from '../core/time.ts';
import type { RideableWindow, SegmentHour as CoreHour, WindowStatus } from '../core/tailwind-window.ts';
import type { ForecastSourceInfo, SegmentForecastInfo, WindUnavailable } from './schemas/forecast-result.ts';
import {
  DETAIL_LINE_POINTS,
  LIST_LINE_POINTS,
  type BestWindow,
  type NearSegment,
  type SegmentDetailResult,
  type SegmentHour,
  type SegmentsNearResult,
} from './schemas/segment-results.ts';

/** The forecast an answer was judged on: its source, when it was issued (ISO), whether it is stale. */
export interface ForecastFacts {
  readonly source: ForecastSourceId;
  readonly issued_at: string;
  readonly stale: boolean;
}

/** The forecast facts in the REST shape; the credit line is the one every answer on that source carries. */
export function forecastSource(info: ForecastFacts): ForecastSourceInfo {
  const [attribution = ''] = attributionFor(info.source, [], null);
  return {
    source: info.source,
    demo: info.source === 'demo',
    issued_at: info.issued_at,
    stale: info.stale,
    attribution,
  };
}

/** The forecast facts of an answer about segments: read, or why none could be. */
export type SegmentForecastFacts =
  ForecastFacts | { readonly source: ForecastSourceId; readonly unavailable: WindUnavailable };

/** The facts of a forecast read by a use case: judged on `source`, or its outage. */
export function forecastFacts(read: ForecastRead, source: ForecastSourceId): SegmentForecastFacts {
  if (read.outage) return { source, unavailable: windUnavailable(read.outage) };
  return { source, issued_at: isoTime(read.judged.issuedAt), stale: read.judged.stale };
}

function segmentForecast(info: SegmentForecastFacts): SegmentForecastInfo {
  if ('issued_at' in info) return forecastSource(info);
  return {
    ...forecastSource({ source: info.source, issued_at: '', stale: false }),
    issued_at: null,
    unavailable: info.unavailable,
  };
}

/** Why no wind is given, in the REST shape, from the outage the use case read (`forecast_*`). */
function windUnavailable(outage: ServiceError): WindUnavailable {
  const retryAt = outage.facts.retryAt ?? null;
  return {
    code: outage.code === 'forecast_unreachable' ? 'forecast_unreachable' : 'forecast_unavailable',
    reason: outage.message,
    retry_at: retryAt === null ? null : isoTime(retryAt),
  };
}

/** How a catalog entry was made: discovered entries keep the OSM data they came from. */
export function sourceOf(segment: Segment): 'built-in' | 'discovered' {
  return segment.provenance ? 'discovered' : 'built-in';
}

/** A segment's best window (`windOnSegment`), in the REST shape; its local times in `timeZone`. */
export function detailWindow(window: RideableWindow | null, timeZone: string): BestWindow | null {
  if (!window) return null;
  return {
    start: isoTime(window.start),
    start_local: localIso(window.start, timeZone),
    end: isoTime(window.end),
    end_local: localIso(window.end, timeZone),
    signed_tailwind_kmh: window.meanTailwindKmh,
    peak_tailwind_kmh: window.peak.tailwindKmh,
    min_temperature_c: window.minTemperatureC,
    max_temperature_c: window.maxTemperatureC,
    flags: [...window.flags],
  };
}

/** Figures of a catalog entry both REST answers give; where it lies, as the use case found it. */
function segmentFigures(segment: Segment, location: SegmentLocation) {
  const { start } = location;
  return {
    id: segment.id,
    name: segment.name,
    source: sourceOf(segment),
    country: segment.countryCode,
    length_km: roundHalfAway(segment.distanceM / 1000, 2),
    bearing_deg: roundHalfAway(location.bearingDeg, 1),
    ...(Number.isFinite(segment.averageGradePct) ? { avg_grade_pct: segment.averageGradePct } : {}),
    elevation_gain_m: segment.elevationGainM,
    start: { lat: start.lat, lon: start.lon },
  };
}

/**
 * The list near a place in the REST shape: the place as the place search
 * resolved it, every segment listed (within the radius, or when none is the
 * nearest beyond it) with its line for a map, and its best window in its own
 * zone, as `/v1/segments/{id}` gives it.
 */
export function segmentsNearResult(parts: {
  readonly place: ResolvedPlace;
  /** The zone at the point searched around. */
  readonly timeZone: string;
  readonly radiusM: number;
  /** Whether the segments lie within the radius (else they are the nearest beyond it). */
  readonly withinRadius: boolean;
  readonly segments: readonly ListedSegment[];
  readonly mapping: string | null;
  readonly forecast: SegmentForecastFacts;
  readonly attribution: readonly string[];
}): SegmentsNearResult {
  const { place } = parts;
  const placeName = placeLabel(place);
  return {
    place: {
      name: place.name,
      ...(place.country_code === null ? {} : { country: place.country_code }),
      lat: place.latitude,
      lon: place.longitude,
      time_zone: parts.timeZone,
      region: place.region,
      resolved_by: place.resolved_by,
      ambiguous: place.ambiguous,
      alternatives: place.alternatives.map((other) => ({
        name: other.name,
        country: other.country_code,
        lat: other.latitude,
        lon: other.longitude,
        region: other.region,
        kind: other.kind,
      })),
    },
    radius_km: parts.radiusM / 1000,
    headline: listHeadline({
      placeName,
      radiusKm: parts.radiusM / 1000,
      withinRadius: parts.withinRadius,
      distancesKm: parts.segments.map(({ distanceM }) => distanceM / 1000),
    }),
    forecast: segmentForecast(parts.forecast),
    segments: parts.segments.map(({ segment, distanceM, location, wind }): NearSegment => ({
      ...segmentFigures(segment, location),
      distance_km: roundHalfAway(distanceM / 1000, 1),
      within_radius: parts.withinRadius,
      popularity_rank: segment.popularityRank,
      line: mapLine(segment.polyline, LIST_LINE_POINTS),
      best_window: detailWindow(wind?.best.window ?? null, location.timeZone),
      window_status: wind?.best.status ?? 'no_forecast',
    })),
    ...(parts.mapping === null ? {} : { mapping: parts.mapping }),
    attribution: [...parts.attribution],
  };
}

/** "Girona, ES": the place as a headline names it (coordinates and segment names as they are). */
export function placeLabel(place: Pick<ResolvedPlace, 'name' | 'country_code'>): string {
  return place.country_code && !place.name.includes(',')
    ? `${place.name}, ${place.country_code}`
    : place.name;
}

/** What the keyless API says instead of the ensemble spread. */
export function ensembleNote(pricingUrl: string): string {
  return (
    'The chance of a tailwind (the spread of ensemble forecasts over the best window) is a Pro feature: ' +
    `a rider with Pro (or the free trial, ${pricingUrl}) gets it from the MCP tools get_segment and ` +
    'find_tailwind_segments at the rider address.'
  );
}

/**
 * One catalog segment with its forecast facts, its wind hour by hour and
 * best window (`windOnSegment`, as `get_segment` judges it) and its credits,
 * in the REST shape.
 */
export function segmentDetailResult(
  segment: Segment,
  parts: {
    readonly location: SegmentLocation;
    readonly forecast: SegmentForecastFacts;
    readonly hours: readonly CoreHour[];
    readonly bestWindow: RideableWindow | null;
    readonly windowStatus: WindowStatus | 'no_forecast';
    readonly attribution: readonly string[];
    readonly pricingUrl: string;
    /** Heights along the road, null when none could be read. */
    readonly profile?: readonly ProfilePoint[] | null;
  },
): SegmentDetailResult {
  const { end, timeZone } = parts.location;
  return {
    segment: {
      ...segmentFigures(segment, parts.location),
      source_note: segment.source,
      made_from: madeFrom(segment),
      ...(segment.provenance
        ? {
            provenance: {
              osm_way_ids: [...segment.provenance.osmWayIds],
              osm_data_date: segment.provenance.osmTimestamp,
              osm_source: segment.provenance.osmSource,
              elevation_source: segment.provenance.elevationSource,
              ranked_by: segment.rankedBy ?? null,
            },
          }
        : {}),
      license: segment.license,
      ...(segment.maxGradePct === undefined ? {} : { max_grade_pct: segment.maxGradePct }),
      end: { lat: end.lat, lon: end.lon },
      line: mapLine(segment.polyline, DETAIL_LINE_POINTS),
      profile:
        parts.profile?.map((point) => ({ distance_km: point.distanceKm, elevation_m: point.elevationM })) ??
        null,
    },
    time_zone: timeZone,
    forecast: segmentForecast(parts.forecast),
    hours: parts.hours.map((hour): SegmentHour => ({
      time: isoTime(hour.time),
      time_local: localIso(hour.time, timeZone),
      signed_tailwind_kmh: hour.tailwindKmh,
      crosswind_kmh: hour.crosswindKmh,
      wind_speed_kmh: hour.windSpeedKmh,
      wind_direction_deg: hour.windDirectionDeg,
      wind_gusts_kmh: hour.windGustsKmh,
      precipitation_mm: hour.precipitationMm,
      precipitation_probability_pct: hour.precipitationProbabilityPct,
      temperature_c: hour.temperatureC,
      daylight: hour.daylight,
    })),
    best_window: detailWindow(parts.bestWindow, timeZone),
    window_status: parts.windowStatus,
    ensemble: { locked: true, note: ensembleNote(parts.pricingUrl) },
    attribution: [...parts.attribution],
  };
}
