/**
 * The REST data endpoints' answers in the REST API's shapes: the list from
 * `find_tailwind_segments`' structured answer (the two surfaces are peers
 * that may not import each other, so they meet here, in the composition
 * root), one segment from what lies below both surfaces (its hours and best
 * window as `windOnSegment` judges them, the credits of `src/rider`). Nothing here
 * decides anything about wind, windows, places or ranking: that stays in the
 * one place each rule lives (decision 0022).
 */
import { localIso } from '../core/local-time.ts';
import { roundHalfAway } from '../core/round.ts';
import { bearingOf, endOf, startOf } from '../data/segments/segment-geometry.ts';
import { segmentLine } from '../data/segments/segment-line.ts';
import type { ProfilePoint } from '../data/segments/segment-profile.ts';
import type { Segment } from '../data/segments/types.ts';
import type { FindTailwindSegmentsOutput } from '../mcp/schemas/find.ts';
import { attributionFor } from '../rider/answer-credits.ts';
import { isoTime } from '../core/time.ts';
import type { RideableWindow, SegmentHour as CoreHour, WindowStatus } from '../core/tailwind-window.ts';
import type { ForecastSourceInfo } from '../rest/schemas/forecast-result.ts';
import {
  DETAIL_LINE_POINTS,
  LIST_LINE_POINTS,
  type BestWindow,
  type NearSegment,
  type SegmentDetailResult,
  type SegmentHour,
  type SegmentsNearResult,
} from '../rest/schemas/segment-results.ts';

type ToolForecast = NonNullable<FindTailwindSegmentsOutput['forecast']>;
type BriefWindow = NonNullable<FindTailwindSegmentsOutput['segments'][number]['best_window']>;

/** The forecast facts in the REST shape; the credit line is the tools' own for that source. */
export function forecastSource(
  info: Pick<ToolForecast, 'source' | 'issued_at' | 'stale'>,
): ForecastSourceInfo {
  const [attribution = ''] = attributionFor(info.source, [], null);
  return {
    source: info.source,
    demo: info.source === 'demo',
    issued_at: info.issued_at,
    stale: info.stale,
    attribution,
  };
}

/** How a catalog entry was made: discovered entries keep the OSM data they came from. */
export function sourceOf(segment: Segment): 'built-in' | 'discovered' {
  return segment.provenance ? 'discovered' : 'built-in';
}

const unixS = (iso: string): number => Date.parse(iso) / 1000;

/** A list's brief window with its local times (the list's zone, or the segment's where it differs). */
function nearWindow(window: BriefWindow | null, timeZone: string): BestWindow | null {
  if (!window) return null;
  return {
    start: window.start,
    start_local: localIso(unixS(window.start), timeZone),
    end: window.end,
    end_local: localIso(unixS(window.end), timeZone),
    signed_tailwind_kmh: window.mean_tailwind_kmh,
    peak_tailwind_kmh: window.peak_tailwind_kmh,
    min_temperature_c: window.min_temperature_c,
    max_temperature_c: window.max_temperature_c,
    flags: [...window.flags],
  };
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

/** Figures of a catalog entry both REST answers give. */
function segmentFigures(segment: Segment) {
  const start = startOf(segment);
  return {
    id: segment.id,
    name: segment.name,
    source: sourceOf(segment),
    country: segment.countryCode,
    length_km: roundHalfAway(segment.distanceM / 1000, 2),
    bearing_deg: roundHalfAway(bearingOf(segment), 1),
    ...(Number.isFinite(segment.averageGradePct) ? { avg_grade_pct: segment.averageGradePct } : {}),
    elevation_gain_m: segment.elevationGainM,
    start: { lat: start.lat, lon: start.lon },
  };
}

/**
 * `find_tailwind_segments`' answer in the REST shape: its place, its list (or,
 * when the radius holds none, its nearest beyond the radius), each entry with
 * the catalog's line for a map. `catalog` finds the listed ids (all in the
 * catalog the tool just read).
 */
export function segmentsNearResult(
  answer: FindTailwindSegmentsOutput,
  forecast: ToolForecast,
  segmentOf: (id: string) => Segment | undefined,
): SegmentsNearResult {
  const { place } = answer;
  const within = answer.segments.length > 0;
  const listed = within ? answer.segments : (answer.nearest_beyond_radius ?? []);
  const segments = listed.flatMap((found): NearSegment[] => {
    const segment = segmentOf(found.id);
    if (!segment) return [];
    return [
      {
        ...segmentFigures(segment),
        distance_km: roundHalfAway(found.distance_from_place_m / 1000, 1),
        within_radius: within,
        popularity_rank: found.popularity_rank,
        line: segmentLine(segment.polyline, LIST_LINE_POINTS),
        best_window: nearWindow(found.best_window, found.time_zone ?? answer.time_zone),
        window_status: found.window_status,
      },
    ];
  });
  return {
    place: {
      name: place.name,
      ...(place.country_code === null ? {} : { country: place.country_code }),
      lat: place.latitude,
      lon: place.longitude,
      time_zone: answer.time_zone,
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
    radius_km: answer.radius_m / 1000,
    forecast: forecastSource(forecast),
    segments,
    ...(answer.mapping === undefined ? {} : { mapping: answer.mapping }),
    attribution: [...answer.attribution],
  };
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
    readonly timeZone: string;
    readonly forecast: Pick<ToolForecast, 'source' | 'issued_at' | 'stale'>;
    readonly hours: readonly CoreHour[];
    readonly bestWindow: RideableWindow | null;
    readonly windowStatus: WindowStatus | 'no_forecast';
    readonly attribution: readonly string[];
    readonly pricingUrl: string;
    /** Heights along the road, null when none could be read. */
    readonly profile?: readonly ProfilePoint[] | null;
  },
): SegmentDetailResult {
  const end = endOf(segment);
  return {
    segment: {
      ...segmentFigures(segment),
      source_note: segment.source,
      license: segment.license,
      ...(segment.maxGradePct === undefined ? {} : { max_grade_pct: segment.maxGradePct }),
      end: { lat: end.lat, lon: end.lon },
      line: segmentLine(segment.polyline, DETAIL_LINE_POINTS),
      profile:
        parts.profile?.map((point) => ({ distance_km: point.distanceKm, elevation_m: point.elevationM })) ??
        null,
    },
    time_zone: parts.timeZone,
    forecast: forecastSource(parts.forecast),
    hours: parts.hours.map((hour): SegmentHour => ({
      time: isoTime(hour.time),
      time_local: localIso(hour.time, parts.timeZone),
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
    best_window: detailWindow(parts.bestWindow, parts.timeZone),
    window_status: parts.windowStatus,
    ensemble: { locked: true, note: ensembleNote(parts.pricingUrl) },
    attribution: [...parts.attribution],
  };
}
