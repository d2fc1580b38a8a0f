/**
 * `GET /v1/segments` built below both surfaces, as `/v1/segments/{id}` is:
 * the place search (`src/rider/place.ts`), the segments around it and the
 * forecast points they are judged on (`segments-around.ts`), the hours judged
 * (`segment-forecast.ts`), each segment's wind as `windOnSegment` remembers
 * it, and the credits (`answer-credits.ts`): the very parts
 * `find_tailwind_segments` is built from, so both surfaces list the same
 * segments in the same order with the same windows. Not the tool itself:
 * its answer is cut to the MCP byte budget an assistant pays for
 * (`fit-find-answer.ts`), where this list is bounded by `limit` alone
 * (decision 0035).
 */
import type { ForecastSource } from '../data/forecast/types.ts';
import { forecastOutage } from '../data/forecast/forecast-outage.ts';
import type { Geocoder } from '../data/geocoding/types.ts';
import { windOnSegment } from '../data/segments/segment-window.ts';
import { timeZoneAt } from '../data/time-zone/zone-at.ts';
import { isoTime } from '../core/time.ts';
import { attributionFor } from '../rider/answer-credits.ts';
import { PlaceError, resolvePlace, type PlaceResolution } from '../rider/place.ts';
import { judgedForecast } from '../rider/segment-forecast.ts';
import { NEAREST_BEYOND_RADIUS, segmentsAroundPlace, type AroundParts } from '../rider/segments-around.ts';
import { placeNotFound, placeSearchUnavailable } from '../rest/data-problems.ts';
import type { SegmentsNearQuery } from '../rest/schemas/data-queries.ts';
import type { SegmentsNearResult } from '../rest/schemas/segment-results.ts';
import { segmentsNearResult, windUnavailable, type SegmentForecastFacts } from './rest-answers.ts';

/** What the list reads: the catalog (with discovery), the place search, the forecast and the clock. */
export interface SegmentsNearParts extends AroundParts {
  readonly geocoder: Geocoder;
  readonly forecast: ForecastSource;
  readonly now: () => number;
}

/** How many suggestions a place_not_found carries (as many as the place search's "Did you mean"). */
const SUGGESTIONS = 5;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The place asked for, or the problem that says why there is none. */
async function placeOf(query: SegmentsNearQuery, parts: SegmentsNearParts): Promise<PlaceResolution> {
  try {
    return await resolvePlace({ place: query.place, latitude: query.lat, longitude: query.lon }, parts);
  } catch (error) {
    if (!(error instanceof PlaceError)) throw error;
    if (error.reason === 'search_failed') throw placeSearchUnavailable(messageOf(error.searchError));
    const suggestions = await parts.geocoder.suggest(query.place ?? '', SUGGESTIONS).catch(() => []);
    throw placeNotFound(error.message, suggestions);
  }
}

/**
 * The hours the listed segments are judged on, or why none could be read: the list answers either
 * way, since the segments, their lines and figures need no weather.
 */
export async function judgedOrOutage(
  parts: Pick<SegmentsNearParts, 'forecast' | 'now'>,
  points: Parameters<typeof judgedForecast>[1],
): Promise<{ sets: Awaited<ReturnType<typeof judgedForecast>>['sets']; facts: SegmentForecastFacts }> {
  const source = parts.forecast.id;
  try {
    const judged = await judgedForecast(parts.forecast, points, parts.now);
    return {
      sets: judged.sets,
      facts: { source, issued_at: isoTime(judged.issuedAt), stale: judged.stale },
    };
  } catch (error) {
    const outage = forecastOutage(error, source, parts.now());
    if (!outage) throw error;
    return { sets: [], facts: { source, unavailable: windUnavailable(outage) } };
  }
}

/**
 * The list near a place or a point. At most `limit` segments: those within
 * the radius, best-known first; with none there, the nearest beyond it
 * (three at most, as the tool lists them, and never more than `limit`).
 */
export async function segmentsNear(
  query: SegmentsNearQuery,
  parts: SegmentsNearParts,
): Promise<SegmentsNearResult> {
  const { place, credit } = await placeOf(query, parts);
  const asked = {
    radiusM: query.radius_km * 1000,
    limit: query.limit,
    beyond: Math.min(query.limit, NEAREST_BEYOND_RADIUS),
  };
  const near = await segmentsAroundPlace(place, asked, parts);
  const forecast = await judgedOrOutage(parts, near.forecastPoints);
  return segmentsNearResult({
    place,
    timeZone: timeZoneAt(near.point),
    radiusM: near.radiusM,
    withinRadius: near.found.length > 0,
    segments: near.listed.map(({ segment, distanceM }, i) => ({
      segment,
      distanceM,
      wind: windOnSegment(segment, forecast.sets[i] ?? null, { includeDarkness: false }),
    })),
    mapping: near.mapping,
    forecast: forecast.facts,
    attribution: attributionFor(
      parts.forecast.id,
      near.listed.map(({ segment }) => segment),
      credit,
    ),
  });
}
