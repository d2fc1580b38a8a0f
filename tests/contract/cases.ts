import type { ProblemCode } from '../../src/core/problems.ts';
import { SERVICE_VERSION } from '../../src/core/service-facts.ts';

/** One request and what the specification says must come back. */
export interface ContractCase {
  readonly name: string;
  readonly path: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly status: number;
  readonly body?: Record<string, unknown>;
  readonly problem?: { readonly code: ProblemCode; readonly parameter?: string; readonly hint?: RegExp };
  readonly responseHeaders?: Record<string, string | RegExp>;
}

const FORMULA = 'signed = wind_speed_kmh * cos((wind_direction_deg + 180) - segment_bearing_deg)';
const tw = (query: string) => `/v1/tailwind?${query}`;
const br = (query: string) => `/v1/bearing?${query}`;
const ALPE = 'start_lat=45.0565&start_lon=6.0307&end_lat=45.0922&end_lon=6.0703';
const invalid = (parameter: string) => ({ code: 'invalid_parameter' as const, parameter });
const missing = (parameter: string) => ({ code: 'missing_parameter' as const, parameter });

/** Any lifetime up to the next forecast hour: the data answers' Cache-Control (the clock decides which). */
const UNTIL_NEXT_HOUR = /^public, max-age=\d+, s-maxage=\d+$/;

/** The data endpoints (API 1.2.0; the list bounded by limit alone since 1.3.0) on the demo forecast every target serves by default. */
const DATA_CASES: readonly ContractCase[] = [
  {
    name: 'wind: the hours of the cell holding a point',
    path: '/v1/wind?lat=45.0712&lon=6.0391',
    status: 200,
    body: {
      cell: { lat: 45.05, lon: 6.05, size_deg: 0.05 },
      time_zone: 'Europe/Paris',
      forecast: { source: 'demo', demo: true, stale: false },
    },
    responseHeaders: { 'cache-control': UNTIL_NEXT_HOUR },
  },
  { name: 'wind: lon missing', path: '/v1/wind?lat=45', status: 400, problem: missing('lon') },
  { name: 'wind: lat out of range', path: '/v1/wind?lat=95&lon=6', status: 400, problem: invalid('lat') },
  {
    name: 'segments: near a place by name',
    path: "/v1/segments?place=Bourg-d'Oisans&limit=2",
    status: 200,
    body: { place: { country: 'FR', time_zone: 'Europe/Paris' }, forecast: { demo: true } },
    responseHeaders: { 'cache-control': UNTIL_NEXT_HOUR },
  },
  {
    name: 'segments: a busy name keeps every other place of the name and the nearest beyond the radius',
    path: '/v1/segments?place=Paris',
    status: 200,
    body: {
      place: {
        country: 'FR',
        ambiguous: false,
        alternatives: [{ country: 'ZA' }, { country: 'US' }, { country: 'CA' }],
      },
      segments: [{ within_radius: false }, { within_radius: false }, { within_radius: false }],
    },
  },
  {
    name: 'segments: limit bounds the nearest beyond the radius too',
    path: '/v1/segments?place=Paris&limit=1',
    status: 200,
    body: { segments: [{ within_radius: false }] },
  },
  {
    name: 'segments: near a point in the southern hemisphere',
    path: '/v1/segments?lat=-33.92&lon=18.42&radius_km=50',
    status: 200,
    body: { place: { time_zone: 'Africa/Johannesburg' } },
  },
  {
    name: 'segments: an unknown place',
    path: '/v1/segments?place=Xqzzyvbrq',
    status: 404,
    problem: { code: 'place_not_found', parameter: 'place' },
    responseHeaders: { 'cache-control': 'no-store' },
  },
  {
    name: 'segments: place and a point at once',
    path: '/v1/segments?place=Paris&lat=45&lon=6',
    status: 400,
    problem: invalid('place'),
  },
  {
    name: 'segments: limit too large',
    path: '/v1/segments?place=Paris&limit=26',
    status: 400,
    problem: invalid('limit'),
  },
  {
    name: 'segment: one catalog segment',
    path: '/v1/segments/fr-alpe-d-huez',
    status: 200,
    body: { segment: { id: 'fr-alpe-d-huez', source: 'built-in' }, ensemble: { locked: true } },
    responseHeaders: { 'cache-control': UNTIL_NEXT_HOUR },
  },
  {
    name: 'segment: a discovered segment, with a trailing slash',
    path: '/v1/segments/ad-col-d-ordino-from-ordino/',
    status: 200,
    body: { segment: { source: 'discovered', license: 'ODbL-1.0' } },
  },
  {
    name: 'segment: an unknown id',
    path: '/v1/segments/xx-no-such-climb',
    status: 404,
    problem: { code: 'unknown_segment', parameter: 'id' },
  },
  {
    name: 'segment: a rider’s own id answers as unknown',
    path: '/v1/segments/my--aaaaaaaaaaaaaaaaaaaa',
    status: 404,
    problem: { code: 'unknown_segment', parameter: 'id' },
  },
  { name: 'segment: an id in capitals', path: '/v1/segments/FR-ALPE', status: 400, problem: invalid('id') },
  {
    name: 'segment: percent-encoded junk',
    path: '/v1/segments/%E0%A4%A',
    status: 400,
    problem: invalid('id'),
  },
  {
    name: 'segment: POST',
    path: '/v1/segments/fr-alpe-d-huez',
    method: 'POST',
    status: 405,
    problem: { code: 'method_not_allowed' },
  },
];

export const CASES: readonly ContractCase[] = [
  // --- /v1/tailwind: results
  {
    name: 'tailwind: the worked example',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 200,
    body: {
      signed_tailwind_kmh: 19.7,
      crosswind_kmh: 3.5,
      effect: 'tailwind',
      segment_bearing_deg: 80,
      wind_speed_kmh: 20,
      wind_direction_deg: 250,
      formula: FORMULA,
    },
    responseHeaders: { 'content-type': /^application\/json/, 'cache-control': /max-age=\d+/ },
  },
  {
    name: 'tailwind: the mirrored wind is the same headwind',
    path: tw('wind_speed_kmh=20&wind_direction_deg=70&segment_bearing_deg=80'),
    status: 200,
    body: { signed_tailwind_kmh: -19.7, crosswind_kmh: 3.5, effect: 'headwind' },
  },
  {
    name: 'tailwind: a wind square to travel is a crosswind',
    path: tw('wind_speed_kmh=20&wind_direction_deg=170&segment_bearing_deg=80'),
    status: 200,
    body: { signed_tailwind_kmh: 0, crosswind_kmh: 20, effect: 'crosswind' },
  },
  {
    name: 'tailwind: no wind is calm',
    path: tw('wind_speed_kmh=0&wind_direction_deg=0&segment_bearing_deg=0'),
    status: 200,
    body: { signed_tailwind_kmh: 0, crosswind_kmh: 0, effect: 'calm' },
  },
  {
    name: 'tailwind: the bounds themselves are accepted',
    path: tw('wind_speed_kmh=300&wind_direction_deg=360&segment_bearing_deg=0'),
    status: 200,
    body: { signed_tailwind_kmh: -300, effect: 'headwind', wind_direction_deg: 360 },
  },
  {
    name: 'tailwind: an exponent is a plain number',
    path: tw('wind_speed_kmh=2e1&wind_direction_deg=250&segment_bearing_deg=8e1'),
    status: 200,
    body: { signed_tailwind_kmh: 19.7, wind_speed_kmh: 20 },
  },
  {
    name: 'tailwind: coordinates give the bearing',
    path: tw(`wind_speed_kmh=20&wind_direction_deg=250&${ALPE}`),
    status: 200,
    body: { segment_bearing_deg: 38.06, signed_tailwind_kmh: 17, crosswind_kmh: 10.6, effect: 'tailwind' },
  },
  {
    name: 'tailwind: four coordinates win over a bearing sent alongside',
    path: tw(`wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=200&${ALPE}`),
    status: 200,
    body: { segment_bearing_deg: 38.06 },
  },
  {
    name: 'tailwind: unknown parameters are ignored, empty ones are not sent',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80&start_lat=&units=mph'),
    status: 200,
    body: { signed_tailwind_kmh: 19.7 },
  },
  // --- /v1/tailwind: problems
  {
    name: 'tailwind: no parameters names wind speed first',
    path: '/v1/tailwind',
    status: 400,
    problem: { ...missing('wind_speed_kmh'), hint: /0 to 300/ },
  },
  {
    name: 'tailwind: a misnamed parameter is named in the hint, the code and status unchanged',
    path: tw('wind_speed=20&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 400,
    problem: {
      ...missing('wind_speed_kmh'),
      hint: /You sent wind_speed: did you mean wind_speed_kmh\? .*0 to 300/,
    },
  },
  {
    name: 'tailwind: missing wind direction',
    path: tw('wind_speed_kmh=20&segment_bearing_deg=80'),
    status: 400,
    problem: { ...missing('wind_direction_deg'), hint: /0 to 360/ },
  },
  {
    name: 'tailwind: no bearing and no coordinates',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250'),
    status: 400,
    problem: { ...missing('segment_bearing_deg'), hint: /start_lat, start_lon, end_lat and end_lon/ },
  },
  {
    name: 'tailwind: partial coordinates name the first one missing',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250&start_lat=45&end_lat=46'),
    status: 400,
    problem: { ...missing('start_lon'), hint: /-180 to 180/ },
  },
  {
    name: 'tailwind: an empty value counts as not sent',
    path: tw('wind_speed_kmh=&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 400,
    problem: missing('wind_speed_kmh'),
  },
  ...['abc', 'NaN', 'Infinity', '0x10', '%205', '1%2C5', '20km', '%2B20'].map((value) => ({
    name: `tailwind: ${decodeURIComponent(value)} is not a number`,
    path: tw(`wind_speed_kmh=${value}&wind_direction_deg=250&segment_bearing_deg=80`),
    status: 400,
    problem: invalid('wind_speed_kmh'),
  })),
  {
    name: 'tailwind: wind speed above 300',
    path: tw('wind_speed_kmh=300.1&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 400,
    problem: { ...invalid('wind_speed_kmh'), hint: /0 to 300/ },
  },
  {
    name: 'tailwind: negative wind speed',
    path: tw('wind_speed_kmh=-1&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 400,
    problem: invalid('wind_speed_kmh'),
  },
  {
    name: 'tailwind: wind direction above 360',
    path: tw('wind_speed_kmh=20&wind_direction_deg=361&segment_bearing_deg=80'),
    status: 400,
    problem: invalid('wind_direction_deg'),
  },
  {
    name: 'tailwind: a parameter sent twice',
    path: tw('wind_speed_kmh=20&wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80'),
    status: 400,
    problem: invalid('wind_speed_kmh'),
  },
  {
    name: 'tailwind: a bad bearing is refused even beside coordinates',
    path: tw(`wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=400&${ALPE}`),
    status: 400,
    problem: invalid('segment_bearing_deg'),
  },
  {
    name: 'tailwind: a latitude out of range',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250&start_lat=95&start_lon=6&end_lat=45&end_lon=6'),
    status: 400,
    problem: { ...invalid('start_lat'), hint: /-90 to 90/ },
  },
  {
    name: 'tailwind: coinciding coordinates',
    path: tw('wind_speed_kmh=20&wind_direction_deg=250&start_lat=45&start_lon=6&end_lat=45&end_lon=6'),
    status: 400,
    problem: invalid('end_lat'),
  },
  // --- /v1/bearing
  { name: 'bearing: Alpe d’Huez', path: br(ALPE), status: 200, body: { bearing_deg: 38.06, compass: 'NE' } },
  {
    name: 'bearing: due east along the equator',
    path: br('start_lat=0&start_lon=0&end_lat=0&end_lon=1'),
    status: 200,
    body: { bearing_deg: 90, compass: 'E' },
  },
  {
    name: 'bearing: a value that rounds to 360.00 is 0',
    path: br('start_lat=0&start_lon=0&end_lat=10&end_lon=-0.0000001'),
    status: 200,
    body: { bearing_deg: 0, compass: 'N' },
  },
  {
    name: 'bearing: across the antimeridian',
    path: br('start_lat=0&start_lon=179.5&end_lat=0&end_lon=-179.5'),
    status: 200,
    body: { bearing_deg: 90, compass: 'E' },
  },
  {
    name: 'bearing: the same point',
    path: br('start_lat=45.1&start_lon=6&end_lat=45.1&end_lon=6'),
    status: 400,
    problem: { ...invalid('end_lat'), hint: /different points/ },
  },
  {
    name: 'bearing: the same pole at two longitudes',
    path: br('start_lat=90&start_lon=0&end_lat=90&end_lon=120'),
    status: 400,
    problem: invalid('end_lat'),
  },
  {
    name: 'bearing: a missing coordinate',
    path: br('start_lat=45&start_lon=6&end_lat=46'),
    status: 400,
    problem: { ...missing('end_lon'), hint: /-180 to 180/ },
  },
  {
    name: 'bearing: a longitude out of range',
    path: br('start_lat=45&start_lon=181&end_lat=46&end_lon=6'),
    status: 400,
    problem: invalid('start_lon'),
  },
  // --- catalog and service
  {
    name: 'plans: four plans, prices as strings, no list price',
    path: '/v1/plans',
    status: 200,
    responseHeaders: { 'cache-control': /public/ },
  },
  {
    name: 'health: ok and never cached',
    path: '/health',
    status: 200,
    body: { status: 'ok', version: SERVICE_VERSION },
    responseHeaders: { 'cache-control': 'no-store' },
  },
  { name: 'openapi: the description', path: '/openapi.json', status: 200, body: { openapi: '3.1.0' } },
  // --- routing and methods
  {
    name: 'an unknown API path',
    path: '/v1/winds',
    status: 404,
    problem: {
      code: 'not_found',
      hint: /\/v1\/tailwind.*\/v1\/bearing.*\/v1\/plans.*\/health.*\/openapi\.json.*\/v1\/wind.*\/v1\/segments.*\/v1\/segments\/\{id\}/,
    },
  },
  {
    name: 'a trailing slash names the same endpoint (issue 28)',
    path: '/v1/plans/',
    status: 200,
  },
  {
    name: 'a trailing slash on /health names it too (issue 28)',
    path: '/health/',
    status: 200,
    body: { status: 'ok', version: SERVICE_VERSION },
  },
  {
    name: 'a trailing slash on /v1/tailwind answers the calculation (issue 28)',
    path: '/v1/tailwind/?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80',
    status: 200,
    body: { signed_tailwind_kmh: 19.7, effect: 'tailwind' },
  },
  {
    name: 'two trailing slashes are another path',
    path: '/v1/plans//',
    status: 404,
    problem: { code: 'not_found' },
  },
  {
    name: 'POST is not allowed',
    path: '/v1/tailwind',
    method: 'POST',
    status: 405,
    problem: { code: 'method_not_allowed' },
    responseHeaders: { allow: 'GET, HEAD, OPTIONS', 'cache-control': 'no-store' },
  },
  {
    name: 'DELETE is not allowed',
    path: '/health',
    method: 'DELETE',
    status: 405,
    problem: { code: 'method_not_allowed' },
  },
  {
    name: 'OPTIONS answers a CORS preflight',
    path: '/v1/tailwind',
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    status: 204,
    responseHeaders: { 'access-control-allow-methods': /GET/, 'access-control-max-age': /\d+/ },
  },
  ...DATA_CASES,
];
