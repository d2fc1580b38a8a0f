/**
 * The REST data endpoints' port (`src/rest/data-port.ts`) over the parts the
 * MCP tools read: the same forecast and its cache, the same catalog (with
 * discovery on demand), the same geocoder. Both segment answers are built
 * below both surfaces, from the place search, the segments around a place
 * and the forecast hours `src/rider` judges and the wind `windOnSegment`
 * remembers, as `find_tailwind_segments` and `get_segment` build theirs; no
 * MCP code runs (`/v1/segments`: `rest-segments-near.ts`, decision 0035).
 * The shapes are turned into the REST API's in `rest-answers.ts`. Loaded
 * with the first data request only (`app.ts`), so `/v1/tailwind` never
 * compiles it.
 */
import { isOwnSegmentId } from '../core/rider-rules.ts';
import { forecastCell } from '../data/forecast/cell-cache.ts';
import { FORECAST_GRID_DEG } from '../data/forecast/cache.ts';
import { ForecastError, type ForecastSource, type WindSeries } from '../data/forecast/types.ts';
import { forecastOutage, outageOf } from '../data/forecast/forecast-outage.ts';
import { isOwnSegment } from '../data/segments/owned-segment.ts';
import { hoursAhead, windOnSegment } from '../data/segments/segment-window.ts';
import { forecastPointOf } from '../data/segments/segment-geometry.ts';
import { attributionFor } from '../rider/answer-credits.ts';
import { isoTime } from '../core/time.ts';
import { segmentTimeZone } from '../data/time-zone/segment-zone.ts';
import { timeZoneAt } from '../data/time-zone/zone-at.ts';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { LiveCatalog } from '../data/discovery/live-catalog.ts';
import type { SegmentProfile, SegmentProfiles } from '../data/segments/segment-profile.ts';
import type { Segment } from '../data/segments/types.ts';
import type { DataAdmission, RestData } from '../rest/data-port.ts';
import { forecastProblem } from '../rest/data-problems.ts';
import type { WindQuery } from '../rest/schemas/data-queries.ts';
import type { WindForecastResult, WindHourResult } from '../rest/schemas/forecast-result.ts';
import { forecastSource, segmentDetailResult } from './rest-answers.ts';
import { judgedOrOutage, segmentsNear, type SegmentsNearParts } from './rest-segments-near.ts';

/**
 * What the port reads: the data parts the MCP tools read too (the catalog with
 * discovery, the place search, the forecast, the clock), the limit's counter
 * and the elevation profiles.
 */
export interface RestDataParts extends SegmentsNearParts {
  readonly discovery?: Pick<LiveCatalog, 'prepare' | 'load'>;
  readonly limiter: { take(key: string): Promise<DataAdmission> };
  /** Loaded with the first segment asked for; without it every profile is null. */
  readonly profiles?: () => Promise<SegmentProfiles>;
}

const NO_PROFILES: SegmentProfile = { points: null, reason: 'No elevation source is configured.' };

/** The segment's profile; a source that fails to load is no profile, never a failed answer. */
async function profileOf(parts: RestDataParts, segment: Segment): Promise<SegmentProfile> {
  if (!parts.profiles) return NO_PROFILES;
  try {
    return await (await parts.profiles()).profileOf(segment);
  } catch (error) {
    return { points: null, reason: messageOf(error) };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One cell's series, or the problem of the outage (`forecast_unreachable`, `forecast_unavailable`). */
async function cellSeries(forecast: ForecastSource, center: { lat: number; lon: number }, now: () => number) {
  let series: WindSeries | null | undefined;
  try {
    [series] = await forecast.hourly([center]);
  } catch (error) {
    const outage = forecastOutage(error, forecast.id, now());
    if (outage) throw forecastProblem(outage, messageOf(error));
    throw error;
  }
  if (!series) {
    const none = new ForecastError('malformed', 'The weather service has no values for this cell.');
    throw forecastProblem(outageOf(none, forecast.id, now()), none.message);
  }
  return series;
}

export function openRestData(parts: RestDataParts): RestData {
  async function wind(query: WindQuery): Promise<WindForecastResult> {
    const { center } = forecastCell({ lat: query.lat, lon: query.lon }, FORECAST_GRID_DEG);
    const series = await cellSeries(parts.forecast, center, parts.now);
    const hours = hoursAhead(series, parts.now());
    return {
      cell: { lat: center.lat, lon: center.lon, size_deg: FORECAST_GRID_DEG },
      time_zone: timeZoneAt(center),
      forecast: forecastSource({
        source: parts.forecast.id,
        issued_at: isoTime(Math.min(series.issuedAt, Math.floor(parts.now() / 1000))),
        stale: series.stale,
      }),
      hours: hours.map((hour): WindHourResult => ({
        time: isoTime(hour.time),
        wind_speed_kmh: hour.speedKmh,
        wind_direction_deg: hour.directionDeg,
        wind_gusts_kmh: hour.gustsKmh,
        temperature_c: hour.temperatureC,
        precipitation_mm: hour.precipitationMm,
        precipitation_probability_pct: hour.precipitationProbabilityPct,
      })),
    };
  }

  async function segment(id: string, urls: ResolvedUrls) {
    // A rider's own segment is private: its id answers as any unknown one, and is never looked up.
    if (isOwnSegmentId(id)) return undefined;
    await parts.discovery?.load([id]);
    const found = parts.catalog.get(id);
    if (!found || isOwnSegment(found)) return undefined;
    // Looked up beside the forecast, so the heights add no wait of their own.
    const profile = profileOf(parts, found);
    // The segment answers without the wind when the forecast cannot be read: its map, figures and
    // profile need none, and `forecast.unavailable` says why in one sentence.
    const judged = await judgedOrOutage(parts, [forecastPointOf(found)]);
    const wind = windOnSegment(found, judged.sets[0] ?? null, { includeDarkness: false });
    return segmentDetailResult(found, {
      timeZone: segmentTimeZone(found),
      forecast: judged.facts,
      hours: wind?.timeline ?? [],
      bestWindow: wind?.best.window ?? null,
      windowStatus: wind?.best.status ?? 'no_forecast',
      attribution: attributionFor(parts.forecast.id, [found], null),
      pricingUrl: urls.pricing,
      profile: (await profile).points,
    });
  }

  return {
    wind,
    segmentsNear: (query) => segmentsNear(query, parts),
    segment,
    admit: (client) => parts.limiter.take(client),
    now: parts.now,
  };
}
