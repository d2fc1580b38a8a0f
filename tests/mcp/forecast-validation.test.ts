import { describe, expect, it } from 'vitest';
import { demoWindAt } from '../../src/data/forecast/demo.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../../src/data/forecast/open-meteo-forecast.ts';
import { FORECAST_HOURS } from '../../src/data/forecast/types.ts';
import { forecastPointOf } from '../../src/data/segments/segment-geometry.ts';
import { GetSegmentOutputSchema } from '../../src/mcp/schemas/segment.ts';
import { fakeOpenMeteo } from '../support/fake-open-meteo.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';

type Hourly = Record<string, (number | null)[] | undefined>;
type Mutation = (hourly: Hourly) => void;

const HOUR0 = Math.floor(TEST_NOW / 3_600_000) * 3600;
const SEGMENT = 'fr-alpe-d-huez';
const segment = createSegmentCatalog(loadEmbeddedSegments()).get(SEGMENT);

/** Sets `variable` at hours 3, 4 and 5 of the answer to `value`. */
const at345 =
  (variable: string, value: number): Mutation =>
  (hourly) => {
    const values = hourly[variable];
    if (values) for (const i of [3, 4, 5]) values[i] = value;
  };

/** The real Open-Meteo client and cache over the fake upstream, with its answer rewritten by `mutate`. */
async function rig(mutate: Mutation | null, now = () => TEST_NOW) {
  const upstream = fakeOpenMeteo(now);
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const answer = (await (await upstream.fetch(input, init)).json()) as
      { hourly: Hourly } | { hourly: Hourly }[];
    for (const location of Array.isArray(answer) ? answer : [answer]) mutate?.(location.hourly);
    return Response.json(answer);
  };
  const source = createOpenMeteoForecast({ fetch, clock: now, retries: 0 });
  const deps = testDeps({ now, forecast: createForecastCache(source, { clock: now }) });
  return connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint(deps)));
}

/** Every number in an answer, with the name of the field holding it. */
function numbers(value: unknown, key = ''): [string, number][] {
  if (typeof value === 'number') return [[key, value]];
  if (Array.isArray(value)) return value.flatMap((v) => numbers(v, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => numbers(v, k));
  return [];
}

describe('impossible forecast values never reach an answer', () => {
  const cases: [string, Mutation, number][] = [
    ['a speed of −50 km/h', at345('wind_speed_10m', -50), 3],
    ['a speed of 1,000,000 km/h', at345('wind_speed_10m', 1_000_000), 3],
    ['a gust of −1 km/h', at345('wind_gusts_10m', -1), 3],
    [
      'a gust below the mean wind',
      (h) => (at345('wind_speed_10m', 30)(h), at345('wind_gusts_10m', 20)(h)),
      3,
    ],
    ['a direction of 400°', at345('wind_direction_10m', 400), 3],
    ['a direction of −10°', at345('wind_direction_10m', -10), 3],
    ['a temperature of 1000 °C', at345('temperature_2m', 1000), 3],
    ['negative precipitation', at345('precipitation', -2), 3],
    ['a probability of 150%', at345('precipitation_probability', 150), 3],
    ['a missing speed', at345('wind_speed_10m', Number.NaN), 3],
    [
      'two times out of order',
      (h) => {
        const t = h['time'];
        if (t) [t[3], t[4]] = [t[4] ?? null, t[3] ?? null];
      },
      1,
    ],
    [
      'a repeated time',
      (h) => {
        const t = h['time'];
        if (t) t[4] = t[3] ?? null;
      },
      1,
    ],
  ];

  it.each(cases)('%s: the hours are dropped, counted and said', async (_, mutate, dropped) => {
    const client = await rig(mutate);
    const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: SEGMENT } });
    expect(result.isError).toBeFalsy();
    const data = GetSegmentOutputSchema.parse(result.structuredContent);
    expect(data.forecast?.unusable_hours).toBe(dropped);
    expect(data.forecast?.note).toContain(`${dropped} forecast hour(s) held impossible or missing values`);
    expect(resultText(result)).toContain(`${dropped} forecast hour(s)`);
    for (const [key, n] of numbers(data)) {
      expect(Number.isFinite(n), key).toBe(true);
      if (key.endsWith('_kmh') || key.includes('_kmh_')) expect(Math.abs(n), key).toBeLessThanOrEqual(400);
      if (key.endsWith('_deg')) expect(n, key).toBeGreaterThanOrEqual(0);
      if (key.endsWith('_deg')) expect(n, key).toBeLessThan(360);
      if (key.endsWith('_c')) expect(Math.abs(n), key).toBeLessThanOrEqual(90);
      if (key.endsWith('_mm')) expect(n, key).toBeGreaterThanOrEqual(0);
      if (key.endsWith('_pct')) expect(n, key).toBeLessThanOrEqual(100);
    }
    await client.close();
  });

  it.each([
    ['no direction array', (h: Hourly) => void delete h['wind_direction_10m']],
    ['every speed impossible', (h: Hourly) => void h['wind_speed_10m']?.fill(-1)],
    ['all but 20 hours impossible', (h: Hourly) => void h['wind_speed_10m']?.fill(5000, 20)],
    // A ragged series cannot be placed in time: no hour of it is guessed into alignment.
    ['a speed array 12 hours short', (h: Hourly) => void h['wind_speed_10m']?.splice(60)],
  ])('%s: a tool error that says too few hours were usable', async (_, mutate) => {
    const client = await rig(mutate);
    const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: SEGMENT } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/too few usable hours: at most \d+ of 72 .* at least 24/);
    await client.close();
  });
});

describe('weather figures pass through the adapter, the cache and the stale fallback', () => {
  it('gives the temperature, rain and chance of rain of the hour being ridden, fresh and stale', async () => {
    if (!segment) throw new Error('catalog lost its test segment');
    const point = forecastPointOf(segment);
    let now = TEST_NOW;
    let failing = false;
    const upstream = fakeOpenMeteo(() => now);
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      failing ? new Response('down', { status: 503 }) : upstream.fetch(input, init);
    const clock = () => now;
    const source = createOpenMeteoForecast({ fetch, clock, retries: 0 });
    const deps = testDeps({ now: clock, forecast: createForecastCache(source, { clock }) });
    const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint(deps)));
    // The cache asks for the 0.05° cell centre; the fake snaps it to 0.01° as Open-Meteo snaps to its grid.
    const snap = (v: number) => Math.round(Math.round(v / 0.05) * 0.05 * 100) / 100;
    const asked = { lat: snap(point.lat), lon: snap(point.lon) };
    const expectHour = async (hour: number, stale: boolean) => {
      const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: SEGMENT } });
      const data = GetSegmentOutputSchema.parse(result.structuredContent);
      const demo = demoWindAt(asked, hour);
      expect(data.forecast?.stale).toBe(stale);
      expect(data.wind_now).toMatchObject({
        time: new Date(hour * 1000).toISOString().replace('.000Z', 'Z'),
        temperature_c: demo.temperatureC,
        precipitation_mm: demo.precipitationMm,
        precipitation_probability_pct: demo.precipitationProbabilityPct,
        wind_gusts_kmh: demo.gustsKmh,
      });
    };
    await expectHour(HOUR0, false);
    now += 3 * 3_600_000;
    failing = true;
    await expectHour(HOUR0 + 3 * 3600, true);
    await client.close();
    expect(FORECAST_HOURS).toBe(72);
  });

  it('gives the demo forecast figures unchanged through the tools', async () => {
    if (!segment) throw new Error('catalog lost its test segment');
    const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint()));
    const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: SEGMENT } });
    const data = GetSegmentOutputSchema.parse(result.structuredContent);
    expect(data.forecast).toMatchObject({ source: 'demo', unusable_hours: 0 });
    // The demo cache asks for the cell centre too.
    const centre = (v: number) => Math.round(Math.round(v / 0.05) * 0.05 * 1e4) / 1e4;
    const p = forecastPointOf(segment);
    const demo = demoWindAt({ lat: centre(p.lat), lon: centre(p.lon) }, HOUR0);
    expect(data.wind_now).toMatchObject({
      temperature_c: demo.temperatureC,
      precipitation_mm: demo.precipitationMm,
      precipitation_probability_pct: demo.precipitationProbabilityPct,
    });
    await client.close();
  });
});
