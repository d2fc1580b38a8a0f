import { ApiError } from '../core/problems.ts';
import { isoTime } from '../core/time.ts';
import type { ForecastOutage } from '../data/forecast/forecast-outage.ts';
import type { ServiceError } from '../service/service-error.ts';

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

/** How long a client waits after the place search failed: its next request goes upstream again. */
export const PLACE_SEARCH_RETRY_AFTER_S = 60;

/**
 * The forecast could not be read and the cache had nothing to stand in: one problem type for each
 * outage `forecast-outage.ts` tells apart. Unreachable (no network or DNS at the server) is the
 * operator's to fix, so it carries no Retry-After; busy says when to ask again, in `retry_at` and
 * Retry-After. `detail` is the outage's own sentence, `cause` what the service did.
 */
export function forecastProblem(outage: ForecastOutage, cause: string): ApiError {
  const extensions = { cause, retry_at: outage.retryAt === null ? null : isoTime(outage.retryAt) };
  if (outage.reach === 'unreachable') {
    return new ApiError('forecast_unreachable', {
      detail: outage.sentence,
      hint: 'The server operator must restore its connection to the weather service. Segments and their figures are still answered, without the wind.',
      extensions,
    });
  }
  return new ApiError('forecast_unavailable', {
    detail: outage.sentence,
    hint: 'Ask again at retry_at (the Retry-After header gives the same in seconds).',
    ...(outage.retryAfterS === null ? {} : { retryAfterS: outage.retryAfterS }),
    extensions,
  });
}

/** The place search service failed (only when a name reached it). */
export function placeSearchUnavailable(reason: string): ApiError {
  return new ApiError('place_search_unavailable', {
    detail: `The place search failed: ${reason}`,
    hint: `Send lat and lon instead, or retry after ${PLACE_SEARCH_RETRY_AFTER_S} seconds (Retry-After).`,
    parameter: 'place',
    retryAfterS: PLACE_SEARCH_RETRY_AFTER_S,
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

/**
 * The one turn of the use cases' error family into the REST API's problems:
 * each code into its documented problem, with the words and facts the
 * builders above give it (the same the docs' examples show).
 */
export function serviceProblem(error: ServiceError): ApiError {
  const { cause = error.message, retryAt = null, retryAfterS = null } = error.facts;
  switch (error.code) {
    case 'invalid_parameter':
      return new ApiError('invalid_parameter', { detail: error.message });
    case 'place_not_found':
      return placeNotFound(error.message, error.facts.suggestions ?? []);
    case 'place_search_unavailable':
      return placeSearchUnavailable(cause);
    case 'unknown_segment':
      return unknownSegment(error.facts.id ?? '');
    case 'too_many_requests':
      return tooManyRequests(retryAfterS ?? 1);
    case 'forecast_unreachable':
    case 'forecast_unavailable': {
      const reach = error.code === 'forecast_unreachable' ? 'unreachable' : 'busy';
      return forecastProblem({ reach, sentence: error.message, retryAt, retryAfterS }, cause);
    }
  }
}
