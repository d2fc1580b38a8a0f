import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { closestName } from '../../src/core/closest-name.ts';
import { GetRouteWindOutputSchema } from '../../src/mcp/schemas/route.ts';
import { connectClient, ERAS, inProcessFetch, toolErrorText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testEndpoint } from '../support/mcp-deps.ts';
import { createRiderHarness, type RiderHarness } from '../support/rider-harness.ts';
import { hundredKmPoints } from '../support/route-points.ts';

// Issue 21: errors that teach, at both addresses: unknown argument names named with the closest known
// one, problems collapsed to one line each and under 1 KB, lat/lon accepted for points.

const KB = 1000;
const latLon = (count: number) =>
  hundredKmPoints(100 / (count - 1)).map((p) => ({ lat: p.latitude, lon: p.longitude }));

describe('closestName', () => {
  it.each([
    ['record', ['segment_id', 'record_s'], 'record_s'],
    ['wind_speed', ['wind_speed_kmh', 'wind_direction_deg', 'segment_bearing_deg'], 'wind_speed_kmh'],
    ['segmnet_id', ['segment_id', 'record_s'], 'segment_id'],
    ['radius', ['place', 'radius_m', 'limit'], 'radius_m'],
    // One swap of neighbours is one edit, within the third of five letters allowed.
    ['lmiit', ['place', 'radius_m', 'limit'], 'limit'],
    ['banana', ['segment_id', 'record_s'], undefined],
  ])('%s among %j is %s', (given, known, expected) => {
    expect(closestName(given, known)).toBe(expected);
  });

  it('suggests only a name it was given, and the name itself when it is known', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 2, maxLength: 12 }),
        fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 6 }),
        (given, known) => {
          const guess = closestName(given, known);
          if (guess !== undefined) expect(known).toContain(guess);
          if (known.includes(given)) expect(closestName(given, known)).toBeDefined();
        },
      ),
    );
  });
});

describe.each(ERAS)('tool arguments at the public address, protocol %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    await ensureGazetteer();
    client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint()));
  });
  afterAll(() => client.close());

  it('accepts a 150-point route as {lat, lon}', async () => {
    const result = await client.callTool({ name: 'get_route_wind', arguments: { points: latLon(150) } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const data = GetRouteWindOutputSchema.parse(result.structuredContent);
    expect(data.route.points_read).toBe(150);
    expect(data.route.distance_km).toBeGreaterThan(99);
  });

  it('answers a route with a wrong field name in one error under 1 KB that names the fix', async () => {
    const points = latLon(150).map(({ lat, lon }) => ({ latitude: lat, long: lon }));
    const text = toolErrorText(await client.callTool({ name: 'get_route_wind', arguments: { points } }));
    expect(text.length).toBeLessThan(KB);
    expect(text).toContain('points[].long');
    expect(text).toMatch(/did you mean points\[\]\.longitude/);
    expect(text.match(/points\[\]\.long\b/g)).toHaveLength(1);
  });

  it('collapses a problem every point shares into one line with its count', async () => {
    const points = latLon(150).map(({ lat }) => ({ latitude: lat }));
    const text = toolErrorText(await client.callTool({ name: 'get_route_wind', arguments: { points } }));
    expect(text.length).toBeLessThan(KB);
    expect(text).toContain('points[].longitude is missing (150 of 150)');
    expect(text).toMatch(/each takes latitude, longitude, elevation_m/);
  });

  it('refuses an unknown argument instead of ignoring it, suggesting the closest', async () => {
    const text = toolErrorText(
      await client.callTool({ name: 'find_tailwind_segments', arguments: { place: 'Girona', radius: 5000 } }),
    );
    expect(text).toMatch(/unknown argument radius; did you mean radius_m\?/);
    expect(text.length).toBeLessThan(KB);
  });

  it('keeps every error under 1 KB, whatever junk the arguments hold (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 40 }),
        async (args) => {
          const result = await client.callTool({ name: 'get_route_wind', arguments: args });
          const [first] = (result.content ?? []) as { text?: string }[];
          if (result.isError) expect((first?.text ?? '').length).toBeLessThan(KB);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('tool arguments at the rider address', () => {
  let h: RiderHarness;
  let client: Client;
  beforeAll(async () => {
    h = await createRiderHarness();
    client = await h.connectRider(await h.createRider({ plan: 'pro' }));
  });
  afterAll(() => h.close());

  it('answers watch_segment {record: "52:30"} with an error naming record_s, and stores nothing', async () => {
    const text = toolErrorText(
      await client.callTool({
        name: 'watch_segment',
        arguments: { segment_id: 'fr-alpe-d-huez', record: '52:30' },
      }),
    );
    expect(text).toMatch(/unknown argument record; did you mean record_s\?/);
    const list = await client.callTool({ name: 'get_my_watchlist', arguments: {} });
    expect((list.structuredContent as { watchlist: unknown[] }).watchlist).toEqual([]);
  });
});
