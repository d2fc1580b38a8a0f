import { describe, expect, it } from 'vitest';
import { hourSpread } from '../../src/core/ensemble-chance.ts';
import { polylineLegs } from '../../src/core/segment-wind.ts';
import { createEnsembleCache } from '../../src/data/forecast/ensemble-cache.ts';
import { createDemoEnsemble, demoMemberWindAt } from '../../src/data/forecast/ensemble-demo.ts';
import { ensembleRequestWeight, type EnsembleRequest } from '../../src/data/forecast/ensemble-types.ts';
import { createOpenMeteoEnsemble, memberKey } from '../../src/data/forecast/open-meteo-ensemble.ts';
import { demoWindAt } from '../../src/data/forecast/demo.ts';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { fakeOpenMeteoEnsemble, type EnsembleFault } from '../support/fake-open-meteo-ensemble.ts';
import { demoSeries, meanHourlySpread, surveyBestWindowChances } from '../support/demo-chance-survey.ts';
import { testDeps, TEST_NOW } from '../support/mcp-deps.ts';
import { json, scripted } from '../support/scripted-fetch.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';

/** 2026-06-06 08:20 UTC: the 06 UTC run is the newest. */
const NOW = Date.UTC(2026, 5, 6, 8, 20);
const HOUR0 = Date.UTC(2026, 5, 6, 8) / 1000;
const RUN = Date.UTC(2026, 5, 6, 6) / 1000;
const ALPE = { lat: 45.0917, lon: 6.0706 };
/** Southern hemisphere and the antimeridian, in one batch with the Alps. */
const POINTS = [ALPE, { lat: -41.29, lon: 174.78 }, { lat: -16.5, lon: -179.99 }];

function adapter(faults: EnsembleFault[] = ['ok'], model: 'ecmwf_ifs025' | 'gfs025' = 'ecmwf_ifs025') {
  const fake = fakeOpenMeteoEnsemble(() => NOW, { faults });
  const requests: EnsembleRequest[] = [];
  const source = createOpenMeteoEnsemble({
    fetch: fake.fetch,
    clock: () => NOW,
    model,
    baseUrl: 'http://ensemble.test',
    backoffLimitMs: 1,
    maxRetryAfterMs: 1,
    timeoutMs: 200,
    onRequest: (r) => requests.push(r),
  });
  return { fake, source, requests };
}

async function failure(promise: Promise<unknown>): Promise<ForecastError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ForecastError);
  return error as ForecastError;
}

describe('Open-Meteo ensemble adapter against the local double', () => {
  it('reads the 51 ECMWF members by name for every point of ONE batched request', async () => {
    const { fake, source, requests } = adapter();
    const series = await source.hourly(POINTS);
    expect(fake.requests()).toBe(1);
    const url = fake.urls()[0];
    expect(url?.searchParams.get('models')).toBe('ecmwf_ifs025');
    expect(url?.searchParams.get('latitude')).toBe('45.0917,-41.29,-16.5');
    expect(url?.searchParams.get('longitude')).toBe('6.0706,174.78,-179.99');
    expect(url?.searchParams.get('hourly')).toBe('wind_speed_10m,wind_direction_10m');
    series.forEach((s, i) => {
      const point = POINTS[i] ?? ALPE;
      expect(s?.members).toBe(51);
      expect(s?.runAt).toBe(RUN);
      expect(s?.unusableHours).toBe(0);
      expect(s?.hours[0]?.time).toBe(HOUR0);
      expect(s?.hours[0]?.speedKmh).toHaveLength(51);
      // Member 17 at hour 5 is exactly what the double sent under `wind_speed_10m_member17`.
      const sent = demoMemberWindAt(point, HOUR0 + 5 * 3600, RUN, 17);
      expect(s?.hours[5]?.speedKmh[17]).toBe(sent.speedKmh);
      expect(s?.hours[5]?.directionDeg[17]).toBe(sent.directionDeg);
    });
    // The control run is the unsuffixed series.
    expect(series[0]?.hours[0]?.speedKmh[0]).toBe(demoWindAt(ALPE, HOUR0).speedKmh);
    expect(requests).toEqual([{ model: 'ecmwf_ifs025', locations: 3, weight: 30.6 }]);
  });

  it('reads the 31 GEFS members when that model is chosen (the documented fallback)', async () => {
    const { fake, source, requests } = adapter(['ok'], 'gfs025');
    const [series] = await source.hourly([ALPE]);
    expect(fake.urls()[0]?.searchParams.get('models')).toBe('gfs025');
    expect(series?.members).toBe(31);
    expect(series?.hours[10]?.directionDeg).toHaveLength(31);
    expect(requests[0]?.weight).toBe(6.2);
  });

  it('names members like Open-Meteo: the control unsuffixed, then _member01 … _member50', () => {
    expect(memberKey('wind_speed_10m', 0)).toBe('wind_speed_10m');
    expect(memberKey('wind_speed_10m', 1)).toBe('wind_speed_10m_member01');
    expect(memberKey('wind_direction_10m', 50)).toBe('wind_direction_10m_member50');
  });

  it('gives no hour a probability when a member is missing from the answer', async () => {
    const { source } = adapter(['missing_member']);
    const [series] = await source.hourly([ALPE]);
    expect(series?.hours).toEqual([]);
    expect(series?.unusableHours).toBe(84);
  });

  it('refuses a ragged member series: every hour unusable, none aligned by guess', async () => {
    const { source } = adapter(['ragged']);
    const [series] = await source.hourly([ALPE]);
    expect(series?.hours).toEqual([]);
    expect(series?.unusableHours).toBe(84);
  });

  it.each([
    ['an absurd speed in one member', 'absurd', 2],
    ['a null in one member', 'null_member_hour', 4],
  ] as const)('drops only the hour with %s', async (_, fault, hour) => {
    const { source } = adapter([fault]);
    const [series] = await source.hourly([ALPE]);
    expect(series?.unusableHours).toBe(1);
    expect(series?.hours).toHaveLength(83);
    expect(series?.hours.map((h) => h.time)).not.toContain(HOUR0 + hour * 3600);
    expect(series?.hours.every((h) => h.speedKmh.length === 51)).toBe(true);
  });

  it('refuses a speed in another unit as unreadable', async () => {
    const { source } = adapter(['unit_mph']);
    expect((await failure(source.hourly([ALPE]))).failure).toBe('malformed');
  });

  it('turns a 429 that persists into a rate-limit error after one retry', async () => {
    const { fake, source } = adapter(['rate_limited']);
    const error = await failure(source.hourly([ALPE]));
    expect(error.failure).toBe('rate_limited');
    expect(fake.requests()).toBe(2);
  });

  it('recovers when a 429 is followed by an answer', async () => {
    const { fake, source } = adapter(['rate_limited', 'ok']);
    const [series] = await source.hourly([ALPE]);
    expect(series?.hours).toHaveLength(84);
    expect(fake.requests()).toBe(2);
  });

  it('gives up on a request that hangs, with a timeout error', async () => {
    const { source } = adapter(['hang']);
    const error = await failure(source.hourly([ALPE]));
    expect(error.failure).toBe('timeout');
    expect(error.message).not.toContain('http');
  });

  it('says what failed without advice or the upstream reason, since the forecast still stands', async () => {
    const failing = async (answer: Response, apiKey?: string) => {
      const { fetch } = scripted(answer);
      const options = { fetch, clock: () => NOW, baseUrl: 'http://ensemble.test', retries: 0 };
      return failure(createOpenMeteoEnsemble({ ...options, ...(apiKey ? { apiKey } : {}) }).hourly([ALPE]));
    };
    const refused = await failing(json('{"error":true,"reason":"API key invalid"}', 401), 'k3y');
    expect([refused.failure, refused.message]).toEqual([
      'upstream_error',
      'The ensemble weather service Open-Meteo failed (HTTP 401).',
    ]);
    const rejected = await failing(json('{"error":true,"reason":"Parameter models is invalid"}', 400));
    expect(rejected.message).toBe('The ensemble weather service Open-Meteo failed (HTTP 400).');
    const limited = await failing(json('{"error":true,"reason":"Too many"}', 429));
    expect(limited.message).toBe('The ensemble weather service Open-Meteo is rate-limiting us.');
    const broken = await failing(json('not json'));
    expect([broken.failure, broken.message]).toEqual([
      'malformed',
      'The ensemble weather service Open-Meteo returned data we could not read.',
    ]);
  });

  it('asks the model run from the metadata once, not per request', async () => {
    const { fake, source } = adapter();
    await source.hourly([ALPE]);
    await source.hourly([POINTS[1] ?? ALPE]);
    expect(fake.metaRequests()).toBe(1);
    expect(await source.currentRun()).toBe(RUN);
  });
});

describe('request weight', () => {
  it('counts variables times members per location, as Open-Meteo does', () => {
    expect(ensembleRequestWeight(1, 2, 51, 84)).toBe(10.2);
    expect(ensembleRequestWeight(10, 2, 51, 84)).toBe(102);
    expect(ensembleRequestWeight(1, 2, 31, 84)).toBe(6.2);
    expect(ensembleRequestWeight(1, 1, 5, 84)).toBe(1);
    expect(ensembleRequestWeight(1, 2, 51, 28 * 24)).toBe(20.4);
  });
});

describe('ensemble cache', () => {
  function cached(faults: EnsembleFault[] = ['ok'], clock = { now: NOW }) {
    const fake = fakeOpenMeteoEnsemble(() => clock.now, { faults });
    const source = createOpenMeteoEnsemble({
      fetch: fake.fetch,
      clock: () => clock.now,
      baseUrl: 'http://ensemble.test',
      backoffLimitMs: 1,
      maxRetryAfterMs: 1,
      retries: 0,
    });
    return { fake, cache: createEnsembleCache(source, { clock: () => clock.now }), clock };
  }

  it('asks a 0.05° cell once per model run, and again when the run changes', async () => {
    const { fake, cache, clock } = cached();
    await cache.hourly([ALPE, { lat: 45.09, lon: 6.07 }]);
    expect(fake.requests()).toBe(1);
    expect(fake.locations()).toBe(1);
    // Three hours later, same run: still cached, and the series starts at the new current hour.
    clock.now = NOW + 3 * 3_600_000;
    const [later] = await cache.hourly([ALPE]);
    expect(fake.requests()).toBe(1);
    expect(later?.hours[0]?.time).toBe(HOUR0 + 3 * 3600);
    expect(later?.hours.length).toBeGreaterThanOrEqual(72);
    // The 12 UTC run is announced at 12:00 + the metadata's 10-minute trust.
    clock.now = Date.UTC(2026, 5, 6, 12, 30);
    const [next] = await cache.hourly([ALPE]);
    expect(fake.requests()).toBe(2);
    expect(next?.runAt).toBe(Date.UTC(2026, 5, 6, 12) / 1000);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, upstreamCalls: 2, sharedHits: 0 });
  });

  it('batches the misses of one call into one request and joins concurrent calls', async () => {
    const { fake, cache } = cached();
    await Promise.all([cache.hourly(POINTS), cache.hourly(POINTS.slice(0, 2))]);
    expect(fake.requests()).toBe(1);
    expect(fake.locations()).toBe(3);
  });

  it('serves the previous run marked stale when the service fails, and fails without one', async () => {
    const { cache, clock } = cached(['ok', 'rate_limited']);
    await cache.hourly([ALPE]);
    clock.now = Date.UTC(2026, 5, 6, 12, 30);
    const [old, none] = await cache.hourly([ALPE, POINTS[1] ?? ALPE]).then(
      (r) => r,
      (e: unknown) => [e, e],
    );
    // The uncached point has no stand-in, so the call fails as a whole; the cached one alone is served.
    expect(old).toBeInstanceOf(ForecastError);
    expect(none).toBeInstanceOf(ForecastError);
    const [alone] = await cache.hourly([ALPE]);
    expect(alone?.stale).toBe(true);
    expect(alone?.runAt).toBe(RUN);
  });

  it('round-trips members exactly through the shared tier', async () => {
    const store = new Map<string, string>();
    const shared = {
      getMany: async (keys: readonly string[]) => keys.map((k) => store.get(k) ?? null),
      set: async (key: string, value: string) => void store.set(key, value),
    };
    const fake = fakeOpenMeteoEnsemble(() => NOW);
    const make = () =>
      createEnsembleCache(
        createOpenMeteoEnsemble({ fetch: fake.fetch, clock: () => NOW, baseUrl: 'http://ensemble.test' }),
        { clock: () => NOW, shared },
      );
    const [first] = await make().hourly([ALPE]);
    const other = make();
    const [second] = await other.hourly([ALPE]);
    expect(fake.requests()).toBe(1);
    expect(other.stats().sharedHits).toBe(1);
    expect(second?.hours).toEqual(first?.hours);
    expect([...store.keys()][0]).toMatch(/^ecmwf_ifs025:\d+:/);
  });
});

describe('demo ensemble', () => {
  const legs = polylineLegs([
    { lat: 45.05, lon: 6.03 },
    { lat: 45.09, lon: 6.07 },
  ]);

  it('is labelled demo, has 51 members whose control is the demo forecast, and is deterministic', async () => {
    const demo = createDemoEnsemble({ clock: () => NOW });
    const [a] = await demo.hourly([ALPE]);
    const [b] = await createDemoEnsemble({ clock: () => NOW }).hourly([ALPE]);
    expect(demo.id).toBe('demo');
    expect(a?.model).toBe('demo');
    expect(a?.members).toBe(51);
    expect(a?.runAt).toBe(RUN);
    expect(a?.hours[3]?.speedKmh[0]).toBe(demoWindAt(ALPE, HOUR0 + 3 * 3600).speedKmh);
    expect(a?.hours).toEqual(b?.hours);
  });

  it('spreads more with lead time, as a real ensemble does', async () => {
    const [series] = await createDemoEnsemble({ clock: () => NOW }).hourly([ALPE]);
    const spreadAt = (h: number) => {
      const spread = series?.hours[h] && hourSpread(legs, series.hours[h], 5);
      return spread ? spread.p90Kmh - spread.p10Kmh : NaN;
    };
    const early = [0, 1, 2, 3, 4, 5].reduce((sum, h) => sum + spreadAt(h), 0) / 6;
    const late = [66, 67, 68, 69, 70, 71].reduce((sum, h) => sum + spreadAt(h), 0) / 6;
    expect(late).toBeGreaterThan(early * 2);
    expect(series?.hours.every((h) => Array.from(h.speedKmh).every((v) => v >= 0 && v <= 400))).toBe(true);
  });

  // Over the whole embedded catalog, as a Pro rider would read it: the demo
  // must show what an ensemble is for (confident soon, uncertain later),
  // not 100 % on every window. Two clocks, so the result is not one lucky hour.
  it.each([
    ['Saturday 10:20 UTC', TEST_NOW],
    ['Sunday 17:20 UTC', TEST_NOW + 31 * 3600_000],
  ])(
    'gives best windows different chances, confident on day 1 and often in doubt on day 3 (%s)',
    async (_, at) => {
      const segments = loadEmbeddedSegments();
      const deps = testDeps({ now: () => at });
      const series = await demoSeries(deps.now, segments);
      const windows = await surveyBestWindowChances(deps, segments, series);
      expect(windows.length).toBeGreaterThan(segments.length / 2);
      const words = new Set(windows.map((w) => w.words));
      expect(words.has('likely')).toBe(true);
      expect(words.size).toBeGreaterThan(1);
      expect(windows.filter((w) => w.chance === 1).length).toBeLessThan(windows.length / 2);
      const day1 = windows.filter((w) => w.leadH < 24);
      const day3 = windows.filter((w) => w.leadH >= 48);
      expect(day1.length).toBeGreaterThan(0);
      expect(day3.length).toBeGreaterThan(0);
      expect(day1.filter((w) => w.words === 'likely').length).toBeGreaterThanOrEqual(day1.length * 0.8);
      expect(day3.filter((w) => w.words !== 'likely').length).toBeGreaterThanOrEqual(day3.length * 0.3);

      const at6 = meanHourlySpread(series, segments, 6);
      const at60 = meanHourlySpread(series, segments, 60);
      expect(at60).toBeGreaterThan(at6 * 2);
    },
  );
});
