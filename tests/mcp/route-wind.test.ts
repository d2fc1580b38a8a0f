import type { Client } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLD_C, GUSTY_KMH, WET_PRECIPITATION_MM, WET_PROBABILITY_PCT } from '../../src/core/rideable.ts';
import { parseGpx } from '../../src/core/route/gpx.ts';
import { MAX_ROUTE_BYTES } from '../../src/core/route/route-limits.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../../src/data/forecast/open-meteo-forecast.ts';
import { GetRouteWindInputSchema, GetRouteWindOutputSchema } from '../../src/mcp/schemas/route.ts';
import { ToolError } from '../../src/mcp/tool.ts';
import { getRouteWind } from '../../src/mcp/tools/get-route-wind.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { fakeOpenMeteo } from '../support/fake-open-meteo.ts';
import { hundredKmPoints } from '../support/route-points.ts';
import { connectClient, ERAS, inProcessFetch, resultText, toolErrorText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/routes/', import.meta.url));
const fixture = (name: string): string => readFileSync(`${FIXTURES}${name}`, 'utf8');
const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };

async function call(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'get_route_wind', arguments: args });
  if (result.isError) throw new Error(`tool error: ${resultText(result)}`);
  return { data: GetRouteWindOutputSchema.parse(result.structuredContent), text: resultText(result) };
}

describe.each(ERAS)('get_route_wind, protocol %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint(testDeps(), UNLIMITED)));
  });
  afterAll(() => client.close());

  it('answers a GeoJSON coastal road in the southern hemisphere with starts, per-km wind and a demo label', async () => {
    const { data, text } = await call(client, { geojson: fixture('southern.geojson') });
    expect(data.route.name).toBe('Coastal drive');
    expect(data.route.distance_km).toBeGreaterThan(9);
    expect(data.route.climbing_m).toBeNull();
    expect(data.route.points_used).toBeLessThan(data.route.points_read);
    expect(data.forecast.source).toBe('demo');
    expect(text).toMatch(/synthetic DEMO/);
    expect(data.start_status).toBe('found');
    expect(data.best_starts.length).toBeGreaterThanOrEqual(1);
    const best = data.best_starts[0];
    if (best === undefined) throw new Error('no start');
    expect(Date.parse(best.start)).toBeGreaterThanOrEqual(TEST_NOW);
    expect(best.flags).not.toContain('dark');
    // The per-km chart averages back to the route figure (to rounding).
    const weighted = data.per_km.reduce((sum, k) => sum + (k.to_km - k.from_km) * k.tailwind_kmh, 0);
    expect(weighted / (data.per_km.at(-1)?.to_km ?? 1)).toBeCloseTo(best.tailwind_kmh, 0);
    expect(
      Math.abs(best.time_gained_s - (best.still_air_minutes - best.ride_minutes) * 60),
    ).toBeLessThanOrEqual(60);
    // Ranked by what the rider feels: time gained against still air, most first.
    expect(data.best_starts.map((s) => s.time_gained_s)).toEqual(
      [...data.best_starts.map((s) => s.time_gained_s)].sort((a, b) => b - a),
    );
    expect(data.route.shape).toBe('point_to_point');
    expect(data.best_starts.every((s) => s.direction === 'as_given' && s.other_direction === null)).toBe(
      true,
    );
  });

  it('judges a loop both ways round and leads with the faster direction and both times', async () => {
    // Every fourth point of the recorded loop (the whole file is over the 64 KB message limit), ends kept.
    const all = parseGpx(fixture('loop.gpx')).points;
    const points = all
      .filter((_, i) => i % 4 === 0 || i === all.length - 1)
      .map((p) => ({ latitude: p.lat, longitude: p.lon, elevation_m: p.ele }));
    const { data, text } = await call(client, { points });
    expect(data.route.shape).toBe('loop');
    expect(data.route.ends_apart_m).toBeLessThan(1000);
    expect(data.best_starts.length).toBeGreaterThanOrEqual(2);
    const rideTimes = data.best_starts.map((s) => s.ride_minutes);
    expect(rideTimes).toEqual([...rideTimes].sort((a, b) => a - b));
    for (const s of data.best_starts) {
      if (s.other_direction === null) throw new Error('a loop start without the other direction');
      // The offered direction is the faster one from that start.
      expect(s.ride_minutes).toBeLessThanOrEqual(s.other_direction.ride_minutes);
    }
    const best = data.best_starts[0];
    const other = best?.other_direction;
    if (best === undefined || !other) throw new Error('no start');
    const first = text.split('\n')[0] ?? '';
    expect(first).toMatch(best.direction === 'reversed' ? /Faster reversed/ : /Faster as given/);
    expect(first).toContain(`${best.ride_minutes % 60} min that way`);
    expect(first).toContain(`${other.ride_minutes % 60} min the other way`);
    // Every offered start is a line of its own, best first, with its time gained or lost.
    const lines = text.split('\n').filter((l) => /^\d\. /.test(l));
    expect(lines).toHaveLength(data.best_starts.length);
    lines.forEach((line, i) => {
      const s = data.best_starts[i];
      if (s === undefined) throw new Error('line without start');
      expect(line).toMatch(s.time_gained_s === 0 ? /costs nothing/ : s.time_gained_s > 0 ? /gains/ : /costs/);
    });
  });

  it("gives the weather behind every start's flags", async () => {
    const { data } = await call(client, { points: hundredKmPoints(1) });
    expect(data.best_starts.length).toBeGreaterThanOrEqual(1);
    for (const s of data.best_starts) {
      // One rain rule: a start with a wet hour is withheld, so an offered one is never wet.
      expect(s.flags.includes('wet'), s.start).toBe(false);
      expect(s.max_precipitation_mm ?? 0, s.start).toBeLessThan(WET_PRECIPITATION_MM);
      expect(s.max_precipitation_probability_pct ?? 0, s.start).toBeLessThan(WET_PROBABILITY_PCT);
      expect(s.flags.includes('gusty'), s.start).toBe((s.max_gusts_kmh ?? 0) >= GUSTY_KMH);
      expect(s.flags.includes('cold'), s.start).toBe((s.min_temperature_c ?? COLD_C) < COLD_C);
    }
  });

  it('reads a switchback GPX climb, with climbing and a slower ride at the same power', async () => {
    const gpx = fixture('switchbacks.gpx').replace(/\n\s*/g, '');
    expect(gpx.length).toBeLessThan(60_000);
    const { data } = await call(client, { gpx, power_w: 220 });
    expect(data.route.name).toBe('Hairpin climb');
    expect(data.route.climbing_m).toBeGreaterThan(1000);
    expect(data.route.elevation_coverage_pct).toBe(100);
    expect(data.rider.power_w).toBe(220);
    const best = data.best_starts[0];
    // 14 km and 1,100 m up at 220 W: well over the 28 minutes the flat would take.
    expect(best?.still_air_minutes).toBeGreaterThan(50);
  });

  it('keeps to the start range asked for', async () => {
    const { data } = await call(client, {
      points: hundredKmPoints().slice(0, 41),
      start_after: '2026-11-22T08:00:00Z',
      start_before: '2026-11-22T12:00:00Z',
      speed_kmh: 30,
    });
    for (const s of data.best_starts) {
      expect(s.start >= '2026-11-22T08:00:00Z' && s.start <= '2026-11-22T12:00:00Z').toBe(true);
    }
    expect(data.rider.flat_speed_kmh).toBe(30);
  });
});

/** Bad input through the tool: every problem named, never a crash. */
const BAD_ROUTES: [string, Record<string, unknown>, RegExp][] = [
  ['no route', {}, /Give the route as one of gpx/],
  ['two routes', { gpx: '<gpx/>', points: [] }, /gpx and points were both given/],
  [
    'an entity declaration',
    {
      gpx: '<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "b">]><gpx><trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1.1" lon="2"/></trkseg></trk></gpx>',
    },
    /declares a DOCTYPE on line 1.*\[xml_entities\]/,
  ],
  [
    'one point',
    { points: [{ latitude: 45, longitude: 6 }] },
    /has 1 point; a route needs at least 2.*\[one_point\]/,
  ],
  [
    'zero length',
    {
      points: [
        { latitude: 45, longitude: 6 },
        { latitude: 45, longitude: 6 },
      ],
    },
    /all at the same place.*\[zero_length\]/,
  ],
  ['not GPX', { gpx: 'hello' }, /Not a GPX file.*\[not_gpx\]/],
  [
    'a bad latitude in GPX',
    { gpx: '<gpx><trk><trkseg><trkpt lat="91" lon="2"/><trkpt lat="1" lon="2"/></trkseg></trk></gpx>' },
    /GPX trkpt 1 has an invalid lat "91" on line 1.*\[bad_coordinate\]/,
  ],
  [
    'a MultiLineString',
    { geojson: '{"type":"MultiLineString","coordinates":[[[0,0],[0,1]],[[1,1],[1,2]]]}' },
    /\[several_lines\]/,
  ],
  ['broken JSON', { geojson: '{"type":' }, /not valid JSON.*\[not_geojson\]/],
  [
    'a latitude out of range in points',
    {
      points: [
        { latitude: 95, longitude: 6 },
        { latitude: 45, longitude: 6 },
      ],
    },
    /latitude must be between -90 and 90/,
  ],
  [
    'speed and power',
    { points: hundredKmPoints().slice(0, 3), speed_kmh: 25, power_w: 200 },
    /speed_kmh or power_w, not both/,
  ],
  [
    'a start range in the past',
    { points: hundredKmPoints().slice(0, 3), start_before: '2026-11-20T10:00:00Z' },
    /is in the past/,
  ],
  [
    'a start beyond the forecast',
    { points: hundredKmPoints().slice(0, 3), start_after: '2026-11-30T10:00:00Z' },
    /beyond the forecast/,
  ],
  [
    'a reversed range',
    {
      points: hundredKmPoints().slice(0, 3),
      start_after: '2026-11-22T10:00:00Z',
      start_before: '2026-11-22T08:00:00Z',
    },
    /earlier than start_after/,
  ],
  [
    'a speed of 500 km/h',
    { points: hundredKmPoints().slice(0, 3), speed_kmh: 500 },
    /speed_kmh is at most 50/,
  ],
];

describe('get_route_wind with bad input', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(
      TEST_MCP_URL,
      '2026-07-28',
      inProcessFetch(testEndpoint(testDeps(), UNLIMITED)),
    );
  });
  afterAll(() => client.close());

  it.each(BAD_ROUTES)('%s', async (_, args, message) => {
    const result = await client.callTool({ name: 'get_route_wind', arguments: args });
    expect(toolErrorText(result)).toMatch(message);
  });

  it('refuses a 10 MB file with too_large before reading it (the tool itself, past the message limit)', async () => {
    const context = { ...testDeps(), caller: { kind: 'anonymous' }, urls: {} } as unknown as ToolContext;
    const gpx = `<gpx>${' '.repeat(10 * 1024 * 1024)}</gpx>`;
    expect(gpx.length).toBeGreaterThan(MAX_ROUTE_BYTES);
    const input = GetRouteWindInputSchema.parse({ gpx });
    await expect(getRouteWind.run(input, context)).rejects.toThrow(ToolError);
    await expect(getRouteWind.run(input, context)).rejects.toThrow(/larger than the 5 MB.*\[too_large\]/);
  });
});

describe('get_route_wind without a forecast', () => {
  it('says so rather than claiming no start fits', async () => {
    const deps = testDeps({
      forecast: { id: 'open-meteo', hourly: (points) => Promise.resolve(points.map(() => null)) },
    });
    const client = await connectClient(
      TEST_MCP_URL,
      '2026-07-28',
      inProcessFetch(testEndpoint(deps, UNLIMITED)),
    );
    try {
      const result = await client.callTool({
        name: 'get_route_wind',
        arguments: { points: hundredKmPoints().slice(0, 5) },
      });
      expect(toolErrorText(result)).toMatch(/no forecast anywhere along this route/);
    } finally {
      await client.close();
    }
  });
});

describe('get_route_wind upstream requests', () => {
  it('asks Open-Meteo once for a 100 km route with a cold cache, and not again within the hour', async () => {
    let now = TEST_NOW;
    const clock = () => now;
    const upstream = fakeOpenMeteo(clock);
    const source = createOpenMeteoForecast({ fetch: upstream.fetch, clock, retries: 0 });
    const deps = testDeps({ now: clock, forecast: createForecastCache(source, { clock }) });
    const client = await connectClient(
      TEST_MCP_URL,
      '2026-07-28',
      inProcessFetch(testEndpoint(deps, UNLIMITED)),
    );
    try {
      const args = { points: hundredKmPoints(), speed_kmh: 28 };
      const { data } = await call(client, args);
      expect(data.route.distance_km).toBeGreaterThan(100);
      expect(data.route.distance_km).toBeLessThan(105);
      const samples = Math.ceil(data.route.distance_km / 5) + 1;
      expect(data.sampling).toEqual({
        spacing_km: 5,
        samples,
        forecast_cell_deg: 0.05,
        interpolated_to_local_hours: false,
      });
      expect(upstream.requests()).toBe(1);
      // Samples 5 km apart sit in distinct 0.05° cells: one location each, all in that one request.
      expect(upstream.batchSizes()[0]).toBeGreaterThan(15);
      expect(upstream.batchSizes()[0]).toBeLessThanOrEqual(samples);
      expect(data.forecast.source).toBe('open-meteo');
      now += 30 * 60_000;
      await call(client, args);
      expect(upstream.requests()).toBe(1);
    } finally {
      await client.close();
    }
  });
});
