import { PROBLEM_CODES, type ProblemCode } from '../../core/problems.ts';
import {
  badHost,
  headerTooLarge,
  MAX_HEAD_BYTES,
  MAX_TARGET_BYTES,
  requestTimedOut,
  uriTooLong,
} from '../../rest/edge-refusals.ts';
import type { ErrorSection } from './error-section.ts';
import { edgeProblemExample, internalErrorExample, liveExample, type LiveExample } from './live-example.ts';

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
      return { code, ...PROBLEM_CODES[code], ...entry, body: (await example()).body };
    }),
  );
}
