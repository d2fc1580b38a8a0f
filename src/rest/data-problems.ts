import { ApiError } from '../core/problems.ts';

/**
 * The problems only the data endpoints answer, built in one place so the
 * composition root's adapter, the handler and the docs' examples say the
 * same words.
 */

/** No place of the name: the words the MCP tool gives (region, lake, spelling hints) and its suggestions. */
export function placeNotFound(detail: string, suggestions: readonly string[]): ApiError {
  return new ApiError('place_not_found', {
    detail,
    hint:
      suggestions.length > 0
        ? 'Send one of the suggestions as place, or send lat and lon instead.'
        : 'Name a nearby town of at least 1,000 people ("Name, CC" picks a country), or send lat and lon.',
    parameter: 'place',
    extensions: { suggestions: [...suggestions] },
  });
}

/** No catalog segment has the id (a rider's own segment id answers the same: it is private). */
export function unknownSegment(id: string): ApiError {
  return new ApiError('unknown_segment', {
    detail: `No catalog segment has the id "${id}".`,
    hint: 'Ids come from GET /v1/segments?place=… (or lat and lon near the segment).',
    parameter: 'id',
  });
}

/** How long a client waits after the forecast provider failed: its cache retries within a minute. */
export const FORECAST_RETRY_AFTER_S = 60;

/** The forecast provider gave no usable answer and the cache had nothing to stand in. */
export function forecastUnavailable(reason: string): ApiError {
  return new ApiError('forecast_unavailable', {
    detail: `No forecast could be read: ${reason}`,
    hint: `The weather service did not answer usefully. Retry after ${FORECAST_RETRY_AFTER_S} seconds (Retry-After).`,
    retryAfterS: FORECAST_RETRY_AFTER_S,
  });
}

/** The place search service failed (only when a name reached it). */
export function placeSearchUnavailable(reason: string): ApiError {
  return new ApiError('place_search_unavailable', {
    detail: `The place search failed: ${reason}`,
    hint: `Send lat and lon instead, or retry after ${FORECAST_RETRY_AFTER_S} seconds (Retry-After).`,
    parameter: 'place',
    retryAfterS: FORECAST_RETRY_AFTER_S,
  });
}

/** The client used up its allowance of data requests for now. */
export function tooManyRequests(retryAfterS: number): ApiError {
  return new ApiError('too_many_requests', {
    detail: 'This address sent more data requests (/v1/wind, /v1/segments) than its allowance.',
    hint: `Wait ${retryAfterS} s (Retry-After), and keep answers: each says how long it stays good (Cache-Control).`,
    retryAfterS,
  });
}
