/**
 * Issue 28, item 5: route starts on whole local hours where the zone is half
 * or a quarter of an hour from UTC (India +5:30, Nepal +5:45, Newfoundland
 * −3:30, Chatham +12:45), with the forecast interpolated to them and the
 * answer saying so; whole-hour zones keep their forecast hours untouched.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localParts } from '../../src/core/local-time.ts';
import { interpolateHours, localHourPhaseS } from '../../src/core/route/route-starts.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';
import { GetRouteWindOutputSchema } from '../../src/mcp/schemas/route.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from '../support/mcp-deps.ts';

const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };

/** A 20 km ride heading north-east from a town, a point every kilometre. */
function rideFrom(lat: number, lon: number) {
  const cos = Math.cos((lat * Math.PI) / 180);
  return Array.from({ length: 21 }, (_, km) => ({
    latitude: Math.round((lat + (km * 0.7) / 111.2) * 1e6) / 1e6,
    longitude: Math.round((lon + (km * 0.7) / (111.2 * cos)) * 1e6) / 1e6,
  }));
}

const PLACES = [
  { name: 'Bengaluru, India', lat: 12.97, lon: 77.59, zone: 'Asia/Kolkata', minute: 30 },
  { name: 'Kathmandu, Nepal', lat: 27.7, lon: 85.32, zone: 'Asia/Kathmandu', minute: 15 },
  { name: "St. John's, Newfoundland", lat: 47.56, lon: -52.71, zone: 'America/St_Johns', minute: 30 },
  { name: 'Waitangi, Chatham Islands', lat: -43.95, lon: -176.56, zone: 'Pacific/Chatham', minute: 15 },
] as const;

describe('localHourPhaseS and interpolateHours', () => {
  it('puts local hours at :30, :15, :30 and :15 UTC in the four zones, and at :00 in whole-hour ones', () => {
    expect([330, 345, -210, 765, 60, -300, 0].map(localHourPhaseS)).toEqual([1800, 900, 1800, 900, 0, 0, 0]);
  });

  it('interpolates wind, gusts and temperature, turns the short way, and keeps the wetter hour', () => {
    const hour = (time: number, speedKmh: number, directionDeg: number, rain: number): WindHour => ({
      time,
      speedKmh,
      directionDeg,
      gustsKmh: speedKmh * 2,
      temperatureC: 10 + time / 3600,
      precipitationMm: rain,
      precipitationProbabilityPct: rain * 10,
    });
    const hours = [hour(0, 10, 350, 0), hour(3600, 20, 30, 2), hour(7200, 30, 30, 0)];
    const half = interpolateHours(hours, 1800);
    expect(half.map((h) => h.time)).toEqual([1800, 5400]);
    expect(half[0]).toMatchObject({
      speedKmh: 15,
      gustsKmh: 30,
      temperatureC: 10.5,
      precipitationMm: 2,
      precipitationProbabilityPct: 20,
    });
    // From 350° to 30° is 40° clockwise through north, not 320° the other way.
    expect(half[0]?.directionDeg).toBeCloseTo(10, 9);
    expect(interpolateHours(hours, 900)[0]?.speedKmh).toBeCloseTo(12.5, 9);
    expect(interpolateHours(hours, 0)).toEqual(hours);
  });
});

describe('get_route_wind in zones a fraction of an hour from UTC', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(
      TEST_MCP_URL,
      '2026-07-28',
      inProcessFetch(testEndpoint(testDeps(), UNLIMITED)),
    );
  });
  afterAll(() => client.close());

  const ask = async (points: ReturnType<typeof rideFrom>) => {
    const result = await client.callTool({
      name: 'get_route_wind',
      arguments: { points, include_darkness: true },
    });
    expect(result.isError, resultText(result)).toBeFalsy();
    return { data: GetRouteWindOutputSchema.parse(result.structuredContent), text: resultText(result) };
  };

  it.each(PLACES)(
    'offers starts on whole local hours near $name, and says the forecast was interpolated',
    async (place) => {
      const { data, text } = await ask(rideFrom(place.lat, place.lon));
      expect(data.time_zone).toBe(place.zone);
      expect(data.sampling.interpolated_to_local_hours).toBe(true);
      expect(data.best_starts.length).toBeGreaterThan(0);
      for (const start of data.best_starts) {
        const unixS = Date.parse(start.start) / 1000;
        expect(localParts(unixS, place.zone).minute, start.start_local).toBe(0);
        expect(new Date(unixS * 1000).getUTCMinutes(), start.start).toBe(place.minute);
        expect(start.start_local).toMatch(/T\d\d:00:00[+-]\d\d:\d\d$/);
      }
      expect(text).toMatch(
        /Starts are on whole local hours \(UTC[+-]\d+:\d\d\), between the forecast's UTC hours: .*interpolated/,
      );
      expect(text).toMatch(/^1\. \w{3} \d+ \w+ \d\d:00 /m);
    },
  );

  it('keeps whole UTC hours and says nothing of interpolation in a whole-hour zone', async () => {
    const { data, text } = await ask(rideFrom(45.19, 5.72));
    expect(data.sampling.interpolated_to_local_hours).toBe(false);
    for (const start of data.best_starts) expect(new Date(start.start).getUTCMinutes()).toBe(0);
    expect(text).not.toMatch(/interpolated/);
  });
});
