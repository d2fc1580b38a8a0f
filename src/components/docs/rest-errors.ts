import { PROBLEM_CODES, type ProblemCode } from '../../core/problems.ts';
import { PROBLEM_STATUS } from '../../http/problem-json.ts';
import {
  badHost,
  headerTooLarge,
  MAX_HEAD_BYTES,
  MAX_TARGET_BYTES,
  requestTimedOut,
  uriTooLong,
} from '../../rest/edge-refusals.ts';
import { outageOf } from '../../data/forecast/forecast-outage.ts';
import { ForecastError } from '../../data/forecast/types.ts';
import {
  forecastProblem,
  placeNotFound,
  placeSearchUnavailable,
  tooManyRequests,
  unknownSegment,
} from '../../rest/data-problems.ts';
import { DATA_RATE_LIMIT } from '../../rest/data-port.ts';
import type { ErrorSection } from './error-section.ts';
import { edgeProblemExample, internalErrorExample, liveExample, type LiveExample } from './live-example.ts';

/** The instant the outage examples are worded at (a busy service's retry time follows from it). */
const EXAMPLE_NOW_MS = Date.UTC(2026, 10, 28, 14, 3, 20);

/** What each code's section says, and how its example answer is made. */
const entries = (
  site: URL,
): Record<
  ProblemCode,
  { cause: string; fix: string; example: () => Promise<LiveExample>; request: string }
> => ({
  missing_parameter: {
    cause:
      'A required query parameter was not sent, or was sent empty (an empty value counts as not sent). On /v1/tailwind this is also the answer when the direction of travel is missing: neither segment_bearing_deg nor all four coordinates, in which case parameter names segment_bearing_deg, or the first missing coordinate when some were sent.',
    fix: 'Add the parameter named in parameter. The hint gives its range and an example value.',
    request: 'GET /v1/tailwind?wind_direction_deg=250&segment_bearing_deg=80',
    example: () => liveExample(site, '/v1/tailwind?wind_direction_deg=250&segment_bearing_deg=80'),
  },
  invalid_parameter: {
    cause:
      'A parameter is not a plain decimal number (NaN, Infinity, hex, commas, spaces, a + sign), is out of its range, or was sent more than once. Two identical points on /v1/bearing, or as coordinates on /v1/tailwind, are also invalid: there is no direction between them.',
    fix: 'Send the parameter once, as a decimal within the range the hint gives (an exponent such as 2e1 is fine).',
    request: 'GET /v1/tailwind?wind_speed_kmh=400&wind_direction_deg=250&segment_bearing_deg=80',
    example: () =>
      liveExample(site, '/v1/tailwind?wind_speed_kmh=400&wind_direction_deg=250&segment_bearing_deg=80'),
  },
  not_found: {
    cause:
      'No endpoint exists at the path. Paths are case-sensitive; one trailing slash names the same endpoint.',
    fix: 'Use one of the endpoints the hint lists.',
    request: 'GET /v1/tailwnd',
    example: () => liveExample(site, '/v1/tailwnd'),
  },
  method_not_allowed: {
    cause: 'The API is read-only: any method other than GET, HEAD or OPTIONS.',
    fix: 'Send a GET with the values in the query string. The Allow header lists the methods.',
    request: 'POST /v1/tailwind',
    example: () => liveExample(site, '/v1/tailwind', 'POST'),
  },
  bad_request: {
    cause:
      'The request cannot be routed: the Host header is missing (HTTP/1.1), empty, sent twice or not a host name and port, or the target is an absolute URL without a valid http(s) authority, or the request is not valid HTTP. Never cached: the same URL is fine with a good Host.',
    fix: 'Send an origin-form request (GET /v1/tailwind?…) with one Host header naming this server.',
    request: 'GET /health with an empty Host: header',
    example: async () => edgeProblemExample(site, badHost('empty'), '/health'),
  },
  request_timeout: {
    cause: 'The request line and headers did not arrive in time (the server waits a minute for a head).',
    fix: 'Send the whole request at once, then wait for the answer.',
    request: 'a request line, then nothing',
    example: async () => edgeProblemExample(site, requestTimedOut(), '/'),
  },
  uri_too_long: {
    cause:
      'The request target is longer than 8 KB (or the whole head longer than 80 KB, which the HTTP parser refuses before the server sees it). The API’s longest useful URL is a few hundred bytes.',
    fix: 'Shorten the URL: send only the parameters the endpoint takes.',
    request: 'GET /v1/tailwind?q=<9,000 characters>',
    example: async () => edgeProblemExample(site, uriTooLong(MAX_TARGET_BYTES), '/v1/tailwind'),
  },
  header_too_large: {
    cause:
      'The request line and header fields together are larger than 16 KB; large cookies are the usual cause.',
    fix: 'Send fewer or shorter headers. The API needs none beyond Host.',
    request: 'GET /health with a 20 KB Cookie header',
    example: async () => edgeProblemExample(site, headerTooLarge(MAX_HEAD_BYTES), '/health'),
  },
  internal_error: {
    cause: 'Something failed on our side. The failure is logged; the answer carries no message or stack.',
    fix: 'Retry after a short wait. If it persists, report it with the request URL.',
    request: 'any request, when the server fails',
    example: async () => internalErrorExample(site),
  },
  place_not_found: {
    cause:
      'GET /v1/segments found no place of the name sent as place: not in the place search, and no catalog segment of that name. suggestions lists close spellings the place search knows (it may be empty).',
    fix: 'Send one of the suggestions, a nearby town of at least 1,000 people ("Name, CC" picks a country), or lat and lon.',
    request: 'GET /v1/segments?place=Bourg-d-Oisanz',
    example: async () =>
      edgeProblemExample(
        site,
        placeNotFound('No place named "Bourg-d-Oisanz" was found. Did you mean: "Bourg-d\'Oisans"?', [
          "Bourg-d'Oisans",
        ]),
        '/v1/segments',
      ),
  },
  unknown_segment: {
    cause:
      'GET /v1/segments/{id} names no catalog segment (built-in or discovered). A rider’s own segment is private, so its id answers exactly like an unknown one. Never cached: discovery may add the segment later.',
    fix: 'Take an id from GET /v1/segments near the segment.',
    request: 'GET /v1/segments/fr-col-de-nulle-part',
    example: async () =>
      edgeProblemExample(site, unknownSegment('fr-col-de-nulle-part'), '/v1/segments/fr-col-de-nulle-part'),
  },
  too_many_requests: {
    cause: `The data endpoints (/v1/wind, /v1/segments, /v1/segments/{id}) reach the forecast, place search and discovery services, so each client address has an allowance of ${DATA_RATE_LIMIT.burst} requests per window of ${(DATA_RATE_LIMIT.burst / DATA_RATE_LIMIT.perMinute).toString()} minute(s), shared by every instance when the deployment uses Redis. The calculations (/v1/tailwind, /v1/bearing) have no such limit.`,
    fix: 'Wait the seconds Retry-After gives, and keep answers as long as their Cache-Control allows (until the next forecast hour).',
    request: `GET /v1/wind?lat=45.06&lon=6.03, the ${DATA_RATE_LIMIT.burst + 1}st time within the window`,
    example: async () => edgeProblemExample(site, tooManyRequests(42), '/v1/wind'),
  },
  forecast_unavailable: {
    cause:
      'The weather service was reached but did not answer usefully (a time-out, a rate limit, a server error, too few usable hours) and the forecast cache held nothing for the cell, not even an older forecast to stand in (answers built on one say stale: true). Only /v1/wind answers it: the segment answers still list their segments, without the wind, and say why in forecast.unavailable. Never cached.',
    fix: 'Ask again at retry_at, the time the detail names (Retry-After gives the same in seconds).',
    request: 'GET /v1/wind?lat=45.06&lon=6.03, while the weather service is overloaded',
    example: async () =>
      edgeProblemExample(
        site,
        forecastProblem(
          outageOf(new ForecastError('timeout', 'no answer'), 'open-meteo', EXAMPLE_NOW_MS),
          'The weather service Open-Meteo did not answer within 4 s.',
        ),
        '/v1/wind',
      ),
  },
  forecast_unreachable: {
    cause:
      'This server cannot reach the weather service at all: no network, a name that does not resolve (DNS), a refused connection. Asking again soon changes nothing, so there is no Retry-After. Only /v1/wind answers it: the segment answers still list their segments, without the wind, and say why in forecast.unavailable. Never cached.',
    fix: 'Nothing on the client: the server operator must restore the connection (or set WOS_FORECAST_URL to a reachable instance). GET /health names the source and when it last answered.',
    request: 'GET /v1/wind?lat=45.06&lon=6.03, on a server with no network',
    example: async () =>
      edgeProblemExample(
        site,
        forecastProblem(
          outageOf(new ForecastError('network', 'no route'), 'open-meteo', EXAMPLE_NOW_MS),
          'This server could not connect to the weather service Open-Meteo.',
        ),
        '/v1/wind',
      ),
  },
  place_search_unavailable: {
    cause:
      'GET /v1/segments?place=… needed the place search service and it failed. Only deployments that search places online can answer this; a name that is also a catalog segment still resolves.',
    fix: 'Send lat and lon instead, or retry after the seconds Retry-After gives.',
    request: 'GET /v1/segments?place=Girona, while the place search is down',
    example: async () =>
      edgeProblemExample(
        site,
        placeSearchUnavailable('the place search did not answer within 5 seconds.'),
        '/v1/segments',
      ),
  },
});

/**
 * The REST API's codes, one section each, in the order of the code table.
 * Every example body is produced by the handler (or the listener's edge)
 * while the site builds, so it is what the API answers.
 */
export async function restErrorSections(site: URL): Promise<ErrorSection[]> {
  const table = entries(site);
  return Promise.all(
    (Object.keys(PROBLEM_CODES) as ProblemCode[]).map(async (code) => {
      const { example, ...entry } = table[code];
      return {
        code,
        status: PROBLEM_STATUS[code],
        ...PROBLEM_CODES[code],
        ...entry,
        body: (await example()).body,
      };
    }),
  );
}
