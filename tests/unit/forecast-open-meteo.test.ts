import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createOpenMeteoForecast,
  type OpenMeteoOptions,
} from '../../src/data/forecast/open-meteo-forecast.ts';
import { forecastFromEnv } from '../support/settings.ts';
import { ForecastError, type WindSeries } from '../../src/data/forecast/types.ts';
import { json, scripted } from '../support/scripted-fetch.ts';

interface RecordedLocation {
  hourly: {
    time: number[];
    wind_speed_10m: (number | null)[];
    wind_direction_10m: (number | null)[];
    wind_gusts_10m: (number | null)[];
  };
  hourly_units: Record<string, string>;
}

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/open-meteo/${name}`, import.meta.url), 'utf8');
const single = fixture('forecast-single.json');
const multi = fixture('forecast-multi.json');
const nulls = fixture('forecast-nulls.json');
const multiParsed = JSON.parse(multi) as RecordedLocation[];

/** 2025-06-01 10:20 UTC; the fixtures start at 10:00. */
const NOW = Date.UTC(2025, 5, 1, 10, 20);
const HOUR0 = Date.UTC(2025, 5, 1, 10) / 1000;
const GALIBIER = { lat: 45.05, lon: 6.03 };
const ALPS = [GALIBIER, { lat: 46.1, lon: 7.2 }, { lat: 43.7, lon: 7.25 }];

function source(fetch: ReturnType<typeof scripted>['fetch'], options: OpenMeteoOptions = {}) {
  return createOpenMeteoForecast({ fetch, clock: () => NOW, backoffLimitMs: 1, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ForecastError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ForecastError);
  return error as ForecastError;
}

/** The URL of the first request made, or a placeholder that fails every assertion. */
const firstUrl = (requests: readonly Request[]) => new URL(requests[0]?.url ?? 'http://no-request.invalid');

afterEach(() => {
  vi.useRealTimers();
});

describe('Open-Meteo request', () => {
  it('asks for all points in one request with comma lists, 4-decimal coordinates and the fixed parameters', async () => {
    const { fetch, requests } = scripted(json(multi));
    const points = [
      { lat: 45.050049, lon: 6.03 },
      { lat: 46.1, lon: 7.123456 },
      { lat: 43.7, lon: 7.25 },
    ];
    await source(fetch).hourly(points);
    expect(requests).toHaveLength(1);
    const url = firstUrl(requests);
    expect(`${url.origin}${url.pathname}`).toBe('https://api.open-meteo.com/v1/forecast');
    expect(url.href).toContain('latitude=45.05,46.1,43.7&longitude=6.03,7.1235,7.25');
    const params = url.searchParams;
    expect(params.get('hourly')).toBe(
      'wind_speed_10m,wind_direction_10m,wind_gusts_10m,temperature_2m,precipitation,precipitation_probability',
    );
    expect(params.get('wind_speed_unit')).toBe('kmh');
    expect(params.get('forecast_hours')).toBe('72');
    expect(params.get('timeformat')).toBe('unixtime');
    expect(params.get('timezone')).toBe('GMT');
    expect(params.has('apikey')).toBe(false);
  });

  it('uses the commercial host, with the key, only when an API key is set', async () => {
    const { fetch, requests } = scripted(json(single));
    await source(fetch, { apiKey: 'k3y' }).hourly([GALIBIER]);
    expect(firstUrl(requests).host).toBe('customer-api.open-meteo.com');
    expect(firstUrl(requests).searchParams.get('apikey')).toBe('k3y');
  });

  it('makes no request for no points', async () => {
    const { fetch, requests } = scripted(json(single));
    expect(await source(fetch).hourly([])).toEqual([]);
    expect(requests).toHaveLength(0);
  });
});

describe('Open-Meteo mapping', () => {
  it('maps a single-location object to one series for the requested point', async () => {
    const { fetch } = scripted(json(single));
    const [series] = await source(fetch).hourly([GALIBIER]);
    const recorded = JSON.parse(single) as RecordedLocation;
    expect(series?.point).toEqual(ALPS[0]);
    expect(series?.issuedAt).toBe(NOW / 1000);
    expect(series?.stale).toBe(false);
    expect(series?.hours).toHaveLength(72);
    expect(series?.hours[0]).toEqual({
      time: HOUR0,
      speedKmh: recorded.hourly.wind_speed_10m[0],
      directionDeg: recorded.hourly.wind_direction_10m[0],
      gustsKmh: recorded.hourly.wind_gusts_10m[0],
      // This recording predates the weather variables: unknown, not zero.
      temperatureC: null,
      precipitationMm: null,
      precipitationProbabilityPct: null,
    });
    expect(series?.unusableHours).toBe(0);
  });

  it('matches the multi-location array to the points by index', async () => {
    const { fetch } = scripted(json(multi));
    const result = await source(fetch).hourly(ALPS);
    expect(result).toHaveLength(3);
    result.forEach((series, i) => {
      const hourly = multiParsed[i]?.hourly;
      expect(series?.point).toEqual(ALPS[i]);
      expect(series?.hours.map((h) => h.speedKmh)).toEqual(hourly?.wind_speed_10m);
      expect(series?.hours.map((h) => h.directionDeg)).toEqual(hourly?.wind_direction_10m);
    });
  });

  it('starts at the current hour when the answer includes a past one', async () => {
    const { fetch } = scripted(json(single));
    const later = createOpenMeteoForecast({ fetch, clock: () => NOW + 3_600_000 });
    const [series] = await later.hourly([GALIBIER]);
    expect(series?.hours[0]?.time).toBe(HOUR0 + 3600);
    expect(series?.hours).toHaveLength(71);
  });

  it('drops and counts hours without speed or direction, keeps null gusts, and counts a point with no usable hour', async () => {
    const { fetch } = scripted(json(nulls));
    const [holes, empty] = (await source(fetch).hourly(ALPS.slice(0, 2))) as [
      WindSeries | null,
      WindSeries | null,
    ];
    const times = holes?.hours.map((h) => (h.time - HOUR0) / 3600);
    expect(times).toHaveLength(69);
    expect(times).not.toContain(5);
    expect(times).not.toContain(70);
    expect(times).not.toContain(71);
    expect(holes?.hours.filter((h) => h.gustsKmh === null).map((h) => (h.time - HOUR0) / 3600)).toEqual([
      10, 11, 12,
    ]);
    expect(holes?.unusableHours).toBe(3);
    // Issue 11: every hour unusable is counted, so the answer can say why there is no window.
    expect(empty?.hours).toEqual([]);
    expect(empty?.unusableHours).toBe(72);
  });

  it('keeps hours with null gusts when the gust series is missing', async () => {
    const recorded = JSON.parse(single) as RecordedLocation;
    const withoutGusts = { ...recorded, hourly: { ...recorded.hourly, wind_gusts_10m: undefined } };
    const [noGusts] = await source(scripted(json(JSON.stringify(withoutGusts))).fetch).hourly([GALIBIER]);
    expect(noGusts?.hours).toHaveLength(72);
    expect(noGusts?.hours.every((h) => h.gustsKmh === null)).toBe(true);
  });

  // Issue 22: an array shorter (or longer) than `time` was read as aligned from the first hour.
  it.each([
    ['wind speed shorter than time', 'wind_speed_10m', 2],
    ['wind direction one short', 'wind_direction_10m', 71],
    ['gusts one too many', 'wind_gusts_10m', 73],
    ['precipitation shorter than time', 'precipitation', 10],
  ])('refuses a ragged answer (%s): every hour counted unusable, none guessed', async (_, name, length) => {
    const recorded = JSON.parse(single) as RecordedLocation;
    const ragged = {
      ...recorded,
      hourly: { ...recorded.hourly, [name]: Array.from({ length }, () => 10) },
    };
    const [short] = await source(scripted(json(JSON.stringify(ragged))).fetch).hourly([GALIBIER]);
    expect(short?.hours).toEqual([]);
    expect(short?.unusableHours).toBe(72);
  });

  it('reads the other locations of a batch when one of them is ragged', async () => {
    const recorded = JSON.parse(multi) as RecordedLocation[];
    const first = recorded[0];
    if (!first) throw new Error('fixture has locations');
    const broken = {
      ...first,
      hourly: { ...first.hourly, wind_speed_10m: first.hourly.wind_speed_10m.slice(1) },
    };
    const body = JSON.stringify([broken, ...recorded.slice(1)]);
    const [bad, good] = await source(scripted(json(body)).fetch).hourly(ALPS);
    expect(bad?.hours).toEqual([]);
    expect(good?.hours).toHaveLength(72);
  });
});

describe('Open-Meteo bodies we cannot read', () => {
  const broken = JSON.parse(single) as RecordedLocation;
  const inMph = { ...broken, hourly_units: { ...broken.hourly_units, wind_speed_10m: 'mp/h' } };
  const cases: [string, string, number][] = [
    ['invalid JSON', '{"latitude": 45.0, "hourly": [', 1],
    ['an HTML page', '<html>maintenance</html>', 1],
    ['no time series', JSON.stringify({ ...broken, hourly: { ...broken.hourly, time: undefined } }), 1],
    ['another unit', JSON.stringify(inMph), 1],
    ['fewer locations than points', multi, 4],
    ['one object for two points', single, 2],
  ];
  it.each(cases)('%s → malformed', async (_, body, count) => {
    const { fetch } = scripted(json(body));
    const error = await failure(source(fetch).hourly(Array.from({ length: count }, () => GALIBIER)));
    expect(error.failure).toBe('malformed');
    expect(error.message).toBe('The weather service Open-Meteo returned data we could not read.');
  });
});

describe('Open-Meteo faults', () => {
  it('gives up after the timeout (4 s by default), aborts the request, and does not retry', async () => {
    vi.useFakeTimers({ now: NOW });
    let aborted = false;
    const { fetch, requests } = scripted(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    );
    const pending = failure(createOpenMeteoForecast({ fetch }).hourly(ALPS));
    await vi.advanceTimersByTimeAsync(3999);
    expect(aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe('The weather service Open-Meteo did not answer within 4 s.');
    expect(aborted).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('retries a 500 twice, then reports an upstream error without leaking the key', async () => {
    const { fetch, requests } = scripted(json('{"error":true,"reason":"Internal"}', 500));
    const error = await failure(source(fetch, { apiKey: 'SECRET-KEY' }).hourly(ALPS));
    expect(requests).toHaveLength(3);
    expect(error.failure).toBe('upstream_error');
    expect(error.message).not.toContain('SECRET-KEY');
    expect(error.message).not.toContain('open-meteo.com');
  });

  it('reports a 500 without a readable body by its status', async () => {
    const { fetch } = scripted(new Response('Bad gateway', { status: 502 }));
    const error = await failure(source(fetch).hourly(ALPS));
    expect(error.message).toBe('The weather service Open-Meteo failed (HTTP 502).');
  });

  it('retries a 429 and succeeds', async () => {
    const { fetch, requests } = scripted(json('{"error":true,"reason":"Too many"}', 429), json(multi));
    const result = await source(fetch).hourly(ALPS);
    expect(requests).toHaveLength(2);
    expect(result.every((s) => s !== null && s.hours.length === 72)).toBe(true);
  });

  it('honours Retry-After only up to its cap', async () => {
    const tooLong = json('{"error":true,"reason":"slow down"}', 429, { 'retry-after': '3600' });
    const { fetch, requests } = scripted(tooLong, json(multi));
    const started = performance.now();
    await source(fetch, { maxRetryAfterMs: 5 }).hourly(ALPS);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(requests).toHaveLength(2);
  });

  it('reports persistent rate limiting after the retries', async () => {
    const { fetch, requests } = scripted(json('{"error":true,"reason":"Too many"}', 429));
    const error = await failure(source(fetch, { maxRetryAfterMs: 1 }).hourly(ALPS));
    expect(requests).toHaveLength(3);
    expect(error.failure).toBe('rate_limited');
    expect(error.message).toBe('The weather service Open-Meteo is rate-limiting this server.');
  });

  it('passes on the reason of a 400 once, with the key redacted', async () => {
    const reason = 'Parameter apikey SECRET-KEY is not valid for hourly';
    const { fetch, requests } = scripted(json(JSON.stringify({ error: true, reason }), 400));
    const error = await failure(source(fetch, { apiKey: 'SECRET-KEY' }).hourly(ALPS));
    expect(requests).toHaveLength(1);
    expect(error.failure).toBe('upstream_error');
    expect(error.message).toBe(
      'The weather service Open-Meteo rejected the request: Parameter apikey *** is not valid for hourly',
    );
  });

  it('tells the operator to check the key on 401 and 403', async () => {
    const { fetch } = scripted(json('{"error":true,"reason":"API key invalid"}', 401));
    const error = await failure(source(fetch, { apiKey: 'bad' }).hourly(ALPS));
    expect(error.message).toContain('OPEN_METEO_API_KEY');
  });

  it('retries network failures, then reports them', async () => {
    const { fetch, requests } = scripted(async () => {
      throw new TypeError('fetch failed');
    });
    const error = await failure(source(fetch).hourly(ALPS));
    expect(requests).toHaveLength(3);
    expect(error.failure).toBe('network');
    expect(error.message).toBe('This server could not connect to the weather service Open-Meteo.');
  });
});

describe('forecastFromEnv', () => {
  it('defaults to the demo forecast, behind the cache', async () => {
    const forecast = forecastFromEnv({}, { clock: () => NOW });
    expect(forecast.id).toBe('demo');
    await forecast.hourly(ALPS);
    expect(forecast.stats().upstreamCalls).toBe(1);
    expect(forecastFromEnv({ WOS_FORECAST: ' ' }).id).toBe('demo');
  });

  it('uses Open-Meteo only when chosen, the commercial host with a key, and the timeout given', async () => {
    const { fetch, requests } = scripted(json(multi));
    const env = { WOS_FORECAST: 'open-meteo', OPEN_METEO_API_KEY: 'k3y', WOS_FORECAST_TIMEOUT_MS: '2500' };
    const forecast = forecastFromEnv(env, { fetch, clock: () => NOW });
    expect(forecast.id).toBe('open-meteo');
    await forecast.hourly(ALPS);
    await forecast.hourly(ALPS);
    expect(requests).toHaveLength(1);
    expect(firstUrl(requests).host).toBe('customer-api.open-meteo.com');
  });

  it('stops start-up on unknown values, saying what is allowed', () => {
    expect(() => forecastFromEnv({ WOS_FORECAST: 'openmeteo' })).toThrow(
      'WOS_FORECAST must be "demo" or "open-meteo", not "openmeteo"',
    );
    expect(() => forecastFromEnv({ WOS_FORECAST: 'open-meteo', WOS_FORECAST_TIMEOUT_MS: '4s' })).toThrow(
      'WOS_FORECAST_TIMEOUT_MS must be a whole number of milliseconds',
    );
  });
});
