/**
 * The REST data endpoints in-process, over the embedded catalog, the gazetteer and the demo forecast at
 * a fixed hour: every answer is checked against its schema and against the data it came from, every
 * parameter's bad input gets its precise problem, and the limit and a failing forecast their 429 and 503.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RestData } from '../../src/rest/data-port.ts';
import { forecastCell } from '../../src/data/forecast/cell-cache.ts';
import { FORECAST_GRID_DEG } from '../../src/data/forecast/cache.ts';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { WindForecastResultSchema } from '../../src/rest/schemas/forecast-result.ts';
import {
  DETAIL_LINE_POINTS,
  LIST_LINE_POINTS,
  SegmentDetailResultSchema,
  SegmentsNearResultSchema,
} from '../../src/rest/schemas/segment-results.ts';
import { ProblemSchema } from '../../src/rest/schemas/problem.ts';
import { failingForecast, TEST_NOW, testDeps } from '../support/mcp-deps.ts';

const ORIGIN = 'http://api.test';
const allow = { take: async () => ({ allowed: true, retryAfterS: 0 }) };

function handlerWith(overrides: Partial<RestData> = {}) {
  const data = { ...testDeps(), limiter: allow, ...overrides };
  return createApiHandler({}, { data: async () => data, memo: 0 });
}

const handle = handlerWith();
const get = (path: string, method = 'GET', client?: string) =>
  handle(new Request(`${ORIGIN}${path}`, { method }), client);

async function problemOf(path: string) {
  const response = await get(path);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return { status: response.status, problem: ProblemSchema.parse(await response.json()), response };
}

/** Seconds from the fixed test time to the next UTC hour: what a fresh answer may be kept for. */
const UNTIL_HOUR_S = 3600 - ((TEST_NOW / 1000) % 3600);

describe('GET /v1/wind', () => {
  it('gives the hours of the cell holding the point, from the current hour, labelled as demo weather', async () => {
    const response = await get('/v1/wind?lat=45.0712&lon=6.0391');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(
      `public, max-age=${UNTIL_HOUR_S}, s-maxage=${UNTIL_HOUR_S}`,
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = WindForecastResultSchema.parse(await response.json());
    expect(body.cell).toEqual({
      ...forecastCell({ lat: 45.0712, lon: 6.0391 }, FORECAST_GRID_DEG).center,
      size_deg: 0.05,
    });
    expect(body.time_zone).toBe('Europe/Paris');
    expect(body.forecast.demo).toBe(true);
    expect(body.forecast.source).toBe('demo');
    expect(body.forecast.attribution).toMatch(/not real weather/);
    expect(body.hours).toHaveLength(72);
    const hourStart = Math.floor(TEST_NOW / 3_600_000) * 3_600_000;
    expect(Date.parse(body.hours[0]?.time ?? '')).toBe(hourStart);
    for (const [i, hour] of body.hours.entries())
      expect(Date.parse(hour.time)).toBe(hourStart + i * 3_600_000);
  });

  it('answers every point of one cell alike, and a neighbouring cell differently', async () => {
    const [a, b, c] = await Promise.all(
      ['/v1/wind?lat=45.071&lon=6.039', '/v1/wind?lat=45.074&lon=6.041', '/v1/wind?lat=45.2&lon=6.2'].map(
        async (p) => WindForecastResultSchema.parse(await (await get(p)).json()),
      ),
    );
    expect(b).toEqual(a);
    expect(c?.cell).not.toEqual(a?.cell);
  });

  it('reads the southern hemisphere and the zone there', async () => {
    const body = WindForecastResultSchema.parse(await (await get('/v1/wind?lat=-33.92&lon=18.42')).json());
    expect(body.cell.lat).toBeCloseTo(-33.9, 6);
    expect(body.time_zone).toBe('Africa/Johannesburg');
    expect(body.hours.length).toBeGreaterThan(0);
  });

  it('puts both sides of the antimeridian into the one cell centred on it', async () => {
    const east = WindForecastResultSchema.parse(await (await get('/v1/wind?lat=-16.5&lon=179.99')).json());
    const west = WindForecastResultSchema.parse(await (await get('/v1/wind?lat=-16.5&lon=-179.99')).json());
    expect(Math.abs(east.cell.lon)).toBe(180);
    expect(west.cell).toEqual(east.cell);
    expect(west.hours).toEqual(east.hours);
  });

  it.each([
    ['', 'missing_parameter', 'lat'],
    ['?lat=45', 'missing_parameter', 'lon'],
    ['?lat=91&lon=6', 'invalid_parameter', 'lat'],
    ['?lat=45&lon=-180.5', 'invalid_parameter', 'lon'],
    ['?lat=north&lon=6', 'invalid_parameter', 'lat'],
    ['?lat=45&lat=46&lon=6', 'invalid_parameter', 'lat'],
    ['?lat=45&lon=0x10', 'invalid_parameter', 'lon'],
  ])('refuses %s with %s naming %s', async (query, code, parameter) => {
    const { status, problem } = await problemOf(`/v1/wind${query}`);
    expect(status).toBe(400);
    expect(problem).toMatchObject({ code, parameter, instance: '/v1/wind' });
    expect(problem.detail).toContain(parameter);
  });

  it('answers 503 forecast_unavailable with a retry time when the service is busy and nothing stands in', async () => {
    const failing = handlerWith({
      forecast: failingForecast(new ForecastError('timeout', 'The weather service timed out.')),
    });
    const response = await failing(new Request(`${ORIGIN}/v1/wind?lat=45&lon=6`));
    expect(response.status).toBe(503);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(60);
    expect(retryAfter).toBeLessThan(120);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const problem = (await response.json()) as Record<string, unknown>;
    ProblemSchema.parse(problem);
    const retryAt = new Date(Math.floor(TEST_NOW / 1000) * 1000 + retryAfter * 1000);
    expect(problem).toMatchObject({
      code: 'forecast_unavailable',
      detail: `Open-Meteo is busy: try again at ${retryAt.toISOString().slice(11, 16)} UTC.`,
      retry_at: retryAt.toISOString().replace('.000', ''),
      cause: 'The weather service timed out.',
    });
    expect(retryAt.getUTCSeconds()).toBe(0);
  });

  it('answers 503 forecast_unreachable, with no Retry-After, when the server cannot reach the service', async () => {
    const offline = handlerWith({
      forecast: failingForecast(new ForecastError('network', 'no route to host')),
    });
    const response = await offline(new Request(`${ORIGIN}/v1/wind?lat=45&lon=6`));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
    const problem = (await response.json()) as Record<string, unknown>;
    expect(ProblemSchema.parse(problem).type).toMatch(/#error-forecast-unreachable$/);
    expect(problem.detail).toMatch(
      /^This server cannot reach .* \(no network or DNS\): check its connection\.$/,
    );
  });
});

describe('segment answers without a forecast', () => {
  const offline = handlerWith({ forecast: failingForecast(new ForecastError('network', 'offline')) });

  it('GET /v1/segments/{id} still gives the figures, road and profile, says why there is no wind', async () => {
    const response = await offline(new Request(`${ORIGIN}/v1/segments/fr-alpe-d-huez`));
    expect(response.status).toBe(200);
    const body = SegmentDetailResultSchema.parse(await response.json());
    expect(body.segment.name).toMatch(/Alpe d'Huez/);
    expect(body.segment.line.length).toBeGreaterThan(10);
    expect(body).toMatchObject({ hours: [], best_window: null, window_status: 'no_forecast' });
    expect(body.forecast.issued_at).toBeNull();
    expect(body.forecast.unavailable).toMatchObject({ code: 'forecast_unreachable', retry_at: null });
    expect(body.forecast.unavailable?.reason).toMatch(/cannot reach/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
  });

  it('GET /v1/segments still lists the segments near a place, each with no_forecast', async () => {
    const response = await offline(new Request(`${ORIGIN}/v1/segments?lat=45.06&lon=6.03`));
    expect(response.status).toBe(200);
    const body = SegmentsNearResultSchema.parse(await response.json());
    expect(body.segments.length).toBeGreaterThan(0);
    expect(body.segments.every((s) => s.best_window === null && s.window_status === 'no_forecast')).toBe(
      true,
    );
    expect(body.forecast.unavailable?.code).toBe('forecast_unreachable');
  });
});

describe('GET /v1/segments', () => {
  it('lists the segments near a place with their lines, windows and credits', async () => {
    const response = await get("/v1/segments?place=Bourg-d'Oisans&limit=3");
    expect(response.status).toBe(200);
    const body = SegmentsNearResultSchema.parse(await response.json());
    expect(body.place).toMatchObject({ country: 'FR', time_zone: 'Europe/Paris', resolved_by: 'gazetteer' });
    expect(body.segments.length).toBeGreaterThan(0);
    expect(body.segments.length).toBeLessThanOrEqual(3);
    expect(body.segments.map((s) => s.id)).toContain('fr-alpe-d-huez');
    for (const segment of body.segments) {
      expect(segment.within_radius).toBe(true);
      expect(segment.distance_km).toBeLessThanOrEqual(body.radius_km);
      expect(segment.line.length).toBeGreaterThanOrEqual(2);
      expect(segment.line.length).toBeLessThanOrEqual(LIST_LINE_POINTS);
      expect(segment.line[0]).toEqual(
        [segment.start.lon, segment.start.lat].map((v) => Math.round(v * 1e5) / 1e5),
      );
      if (segment.best_window) {
        expect(segment.window_status).toBe('found');
        expect(Date.parse(segment.best_window.start_local)).toBe(Date.parse(segment.best_window.start));
        expect(Date.parse(segment.best_window.end_local)).toBe(Date.parse(segment.best_window.end));
      }
    }
    expect(body.attribution.some((line) => line.includes('demo'))).toBe(true);
    expect(body.attribution.some((line) => line.includes('GeoNames'))).toBe(true);
  });

  it('gives the alternatives of a shared name (Paris) and picks one by country', async () => {
    const paris = SegmentsNearResultSchema.parse(
      await (await get('/v1/segments?place=Paris&limit=2')).json(),
    );
    expect(paris.place.country).toBe('FR');
    expect(paris.place.alternatives.map((a) => a.country)).toContain('US');
    const texas = SegmentsNearResultSchema.parse(
      await (await get('/v1/segments?place=Paris%2C%20US&limit=2')).json(),
    );
    expect(texas.place.country).toBe('US');
    expect(texas.place.lat).toBeLessThan(40);
  });

  it('lists a discovered segment with its ODbL credit', async () => {
    const body = SegmentsNearResultSchema.parse(
      await (await get('/v1/segments?lat=42.556&lon=1.533&radius_km=20&limit=25')).json(),
    );
    const discovered = body.segments.filter((s) => s.source === 'discovered');
    expect(discovered.length).toBeGreaterThan(0);
    expect(body.attribution.some((line) => line.includes('OpenStreetMap'))).toBe(true);
  });

  it('answers the southern hemisphere, listing the nearest beyond the radius when none lies within', async () => {
    const body = SegmentsNearResultSchema.parse(
      await (await get('/v1/segments?lat=-33.92&lon=18.42&radius_km=1')).json(),
    );
    expect(body.place.time_zone).toBe('Africa/Johannesburg');
    for (const segment of body.segments) {
      expect(segment.within_radius).toBe(false);
      expect(segment.distance_km).toBeGreaterThan(1);
    }
  });

  it('says place_not_found with the suggestions of the place search', async () => {
    const { status, problem, response } = await problemOf('/v1/segments?place=Bourg-d-Oisanz');
    expect(status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(problem).toMatchObject({ code: 'place_not_found', parameter: 'place' });
    expect(problem.detail).toContain('Bourg-d-Oisanz');
    expect(Array.isArray(problem.suggestions)).toBe(true);
  });

  it.each([
    ['', 'missing_parameter', 'place'],
    ['?place=', 'missing_parameter', 'place'],
    ['?place=%20%20', 'invalid_parameter', 'place'],
    [`?place=${'x'.repeat(121)}`, 'invalid_parameter', 'place'],
    ['?place=Paris&lat=45&lon=6', 'invalid_parameter', 'place'],
    ['?lat=45', 'missing_parameter', 'lon'],
    ['?lon=6', 'missing_parameter', 'lat'],
    ['?lat=-91&lon=6', 'invalid_parameter', 'lat'],
    ['?lat=45&lon=200', 'invalid_parameter', 'lon'],
    ['?place=Paris&radius_km=0.5', 'invalid_parameter', 'radius_km'],
    ['?place=Paris&radius_km=101', 'invalid_parameter', 'radius_km'],
    ['?place=Paris&radius_km=far', 'invalid_parameter', 'radius_km'],
    ['?place=Paris&limit=0', 'invalid_parameter', 'limit'],
    ['?place=Paris&limit=26', 'invalid_parameter', 'limit'],
    ['?place=Paris&limit=2.5', 'invalid_parameter', 'limit'],
    ['?place=Paris&limit=1&limit=2', 'invalid_parameter', 'limit'],
  ])('refuses %s with %s naming %s', async (query, code, parameter) => {
    const { status, problem } = await problemOf(`/v1/segments${query}`);
    expect(status).toBe(400);
    expect(problem).toMatchObject({ code, parameter });
  });

  it('reads a place name that looks like a number as a name', async () => {
    const { problem } = await problemOf('/v1/segments?place=12345');
    expect(problem.code).toBe('place_not_found');
  });
});

describe('GET /v1/segments/{id}', () => {
  it('gives a built-in segment with 72 hours along its road and its best window', async () => {
    const response = await get('/v1/segments/fr-alpe-d-huez');
    expect(response.status).toBe(200);
    const body = SegmentDetailResultSchema.parse(await response.json());
    expect(body.segment).toMatchObject({
      id: 'fr-alpe-d-huez',
      source: 'built-in',
      license: 'CC0-1.0',
      profile: null,
    });
    expect(body.segment.line.length).toBeLessThanOrEqual(DETAIL_LINE_POINTS);
    expect(body.hours).toHaveLength(72);
    expect(body.time_zone).toBe('Europe/Paris');
    expect(body.ensemble.locked).toBe(true);
    expect(body.ensemble.note).toMatch(/Pro/);
    for (const hour of body.hours) {
      expect(Date.parse(hour.time_local)).toBe(Date.parse(hour.time));
      // The split conserves the wind: along² + across² = speed² (each rounded to 0.1).
      expect(Math.hypot(hour.signed_tailwind_kmh, hour.crosswind_kmh)).toBeLessThanOrEqual(
        hour.wind_speed_kmh + 0.2,
      );
    }
    if (body.best_window) {
      const inside = body.hours.filter(
        (h) =>
          Date.parse(h.time) >= Date.parse(body.best_window?.start ?? '') &&
          Date.parse(h.time) < Date.parse(body.best_window?.end ?? ''),
      );
      expect(inside.length).toBeGreaterThan(0);
      expect(inside.every((h) => h.daylight)).toBe(true);
      expect(Math.max(...inside.map((h) => h.signed_tailwind_kmh))).toBeCloseTo(
        body.best_window.peak_tailwind_kmh,
        0,
      );
    }
  });

  it('gives a discovered segment with its OSM source and ODbL', async () => {
    const body = SegmentDetailResultSchema.parse(
      await (await get('/v1/segments/ad-col-d-ordino-from-ordino')).json(),
    );
    expect(body.segment).toMatchObject({ source: 'discovered', license: 'ODbL-1.0' });
    expect(body.segment.source_note).toMatch(/OpenStreetMap/);
    expect(body.attribution.some((line) => line.includes('OpenStreetMap'))).toBe(true);
  });

  it('answers one trailing slash as without it', async () => {
    const [a, b] = await Promise.all([
      get('/v1/segments/fr-alpe-d-huez'),
      get('/v1/segments/fr-alpe-d-huez/'),
    ]);
    expect(await b.text()).toBe(await a.text());
    const list = await get('/v1/segments/?place=Paris&limit=1');
    expect(list.status).toBe(200);
  });

  it.each(['nope', 'my--aaaaaaaaaaaaaaaaaaaa'])(
    'answers %s, unknown or a rider’s own, as unknown_segment',
    async (id) => {
      const { status, problem } = await problemOf(`/v1/segments/${id}`);
      expect(status).toBe(404);
      expect(problem).toMatchObject({ code: 'unknown_segment', parameter: 'id' });
    },
  );

  it.each([
    ['Fr-Alpe', 'lower-case'],
    ['fr_alpe', 'lower-case'],
    ['-fr', 'lower-case'],
    ['a'.repeat(101), 'at most 100'],
    ['%E0%A4%A', 'percent-encoding'],
    ['fr%2Falpe', 'lower-case'],
    ['%00', 'lower-case'],
  ])('refuses the id %s as invalid_parameter (%s)', async (id, words) => {
    const { status, problem } = await problemOf(`/v1/segments/${id}`);
    expect(status).toBe(400);
    expect(problem).toMatchObject({ code: 'invalid_parameter', parameter: 'id' });
    expect(problem.detail).toContain(words);
  });

  it('is not_found below a segment', async () => {
    const { status, problem } = await problemOf('/v1/segments/fr-alpe-d-huez/hours');
    expect(status).toBe(404);
    expect(problem.code).toBe('not_found');
  });
});

describe('methods, CORS and the limit', () => {
  it.each(['/v1/wind?lat=45&lon=6', '/v1/segments?place=Paris', '/v1/segments/fr-alpe-d-huez'])(
    'answers HEAD as GET without the body, OPTIONS as a preflight and POST with 405 on %s',
    async (path) => {
      const [got, head, options, post] = await Promise.all([
        get(path),
        get(path, 'HEAD'),
        get(path, 'OPTIONS'),
        get(path, 'POST'),
      ]);
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(got.headers.get('content-length'));
      expect(head.headers.get('cache-control')).toBe(got.headers.get('cache-control'));
      expect(await head.text()).toBe('');
      expect(options.status).toBe(204);
      expect(options.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    },
  );

  it('answers 429 with Retry-After once a client is past its allowance, per address', async () => {
    const seen = new Map<string, number>();
    const limiter = {
      take: async (key: string) => {
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        return count > 2 ? { allowed: false, retryAfterS: 17 } : { allowed: true, retryAfterS: 0 };
      },
    };
    const limited = handlerWith({ limiter });
    const ask = (client: string) => limited(new Request(`${ORIGIN}/v1/wind?lat=45&lon=6`), client);
    expect((await ask('192.0.2.1')).status).toBe(200);
    expect((await ask('192.0.2.1')).status).toBe(200);
    const refused = await ask('192.0.2.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('17');
    expect(ProblemSchema.parse(await refused.json()).code).toBe('too_many_requests');
    expect((await ask('192.0.2.2')).status).toBe(200);
    // Bad input is refused before the allowance is counted: it costs no upstream request.
    await limited(new Request(`${ORIGIN}/v1/wind?lat=95&lon=6`), '192.0.2.3');
    expect(seen.has('192.0.2.3')).toBe(false);
  });

  it('keeps a stale forecast’s answer a minute only', async () => {
    const deps = testDeps();
    const stale = {
      id: deps.forecast.id,
      hourly: async (points: readonly { lat: number; lon: number }[]) =>
        (await deps.forecast.hourly(points)).map((s) => s && { ...s, stale: true }),
    };
    const response = await handlerWith({ forecast: stale })(new Request(`${ORIGIN}/v1/wind?lat=45&lon=6`));
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60');
    expect(WindForecastResultSchema.parse(await response.json()).forecast.stale).toBe(true);
  });
});

describe('the allowance the composition root builds', () => {
  it('counts per address in memory without Redis, with the window the limit names', async () => {
    const { restDataLimiter } = await import('../../src/app/shared-limits.ts');
    const limiter = await restDataLimiter(undefined, { perMinute: 60, burst: 3 });
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push(await limiter.take('198.51.100.9'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]?.retryAfterS).toBeGreaterThan(0);
    expect(decisions[3]?.retryAfterS).toBeLessThanOrEqual(3);
    expect((await limiter.take('198.51.100.10')).allowed).toBe(true);
  });
});

describe('any input', () => {
  it('answers every id and query with a success or a precise problem, never a 5xx', async () => {
    const text = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 40 }));
    const path = fc.oneof(
      text.map((id) => `/v1/segments/${encodeURIComponent(id)}`),
      fc.record({ lat: text, lon: text }).map((q) => `/v1/wind?${new URLSearchParams(q)}`),
      fc
        .record({ place: text, radius_km: text, limit: text }, { requiredKeys: [] })
        .map((q) => `/v1/segments?${new URLSearchParams(q)}`),
    );
    await fc.assert(
      fc.asyncProperty(path, async (p) => {
        const response = await get(p);
        expect(response.status, p).toBeLessThan(500);
        if (response.status >= 400) {
          const problem = ProblemSchema.parse(await response.json());
          expect([
            'missing_parameter',
            'invalid_parameter',
            'not_found',
            'unknown_segment',
            'place_not_found',
          ]).toContain(problem.code);
        }
      }),
      { numRuns: 150 },
    );
  });
});
