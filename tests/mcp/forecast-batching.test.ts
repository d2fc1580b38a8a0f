import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../../src/data/forecast/open-meteo-forecast.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { generateSegments } from '../support/synthetic-segments.ts';
import type { SegmentCatalog } from '../../src/data/segments/types.ts';
import {
  FindTailwindSegmentsOutputSchema,
  MAX_LIMIT,
  NEAREST_BEYOND_RADIUS,
} from '../../src/mcp/schemas/find.ts';
import { fakeOpenMeteo, type FakeOpenMeteo } from '../support/fake-open-meteo.ts';
import { connectClient, ERAS, inProcessFetch, type Era } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';

// Issue #4: with a cold cache, one tool call costs at most one upstream forecast request.

const GENERATED = generateSegments(10_000, 7);
const generatedCatalog = createSegmentCatalog(GENERATED);

/** These tests count upstream requests, not calls: the per-connection limit stays out of the way. */
const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };

interface Rig {
  readonly upstream: FakeOpenMeteo;
  readonly client: Client;
  /** Moves "now" for the endpoint, the cache and the fake upstream alike. */
  setNow(ms: number): void;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A fresh (cold) forecast cache over the counting fake, behind the real endpoint, and a client on it. */
async function rig(era: Era, catalog?: SegmentCatalog): Promise<Rig> {
  let now = TEST_NOW;
  const clock = () => now;
  const upstream = fakeOpenMeteo(clock);
  const source = createOpenMeteoForecast({ fetch: upstream.fetch, clock, retries: 0 });
  const deps = testDeps({
    now: clock,
    forecast: createForecastCache(source, { clock }),
    ...(catalog ? { catalog } : {}),
  });
  const client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint(deps, UNLIMITED)));
  clients.push(client);
  return { upstream, client, setNow: (ms) => (now = ms) };
}

/** Calls the tool and returns its validated data; an error result fails the test with its message. */
async function find(client: Client, args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'find_tailwind_segments', arguments: args });
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
}

/** Upstream requests made while `action` runs. */
async function requestsDuring(upstream: FakeOpenMeteo, action: () => Promise<unknown>): Promise<number> {
  const before = upstream.requests();
  await action();
  return upstream.requests() - before;
}

describe.each(ERAS)("find_tailwind_segments near Bourg-d'Oisans, protocol %s", (era) => {
  it('asks Open-Meteo once when the cache is cold, and not again within the hour', async () => {
    const { upstream, client, setNow } = await rig(era);
    const args = { place: "Bourg-d'Oisans" };
    let data = await find(client, args);
    expect(upstream.requests()).toBe(1);
    expect(data.segments.length).toBeGreaterThanOrEqual(5);
    expect(data.forecast?.source).toBe('open-meteo');
    expect(data.segments.every((s) => s.window_status !== 'no_forecast')).toBe(true);
    // Every segment's forecast point went out in that one request.
    expect(upstream.batchSizes()[0]).toBeGreaterThanOrEqual(1);
    expect(upstream.batchSizes()[0]).toBeLessThanOrEqual(data.segments.length);

    setNow(TEST_NOW + 39 * 60_000); // 10:59, same UTC hour
    expect(await requestsDuring(upstream, () => find(client, args))).toBe(0);

    setNow(Date.UTC(2026, 10, 21, 11)); // the next hour: entries are no longer fresh
    expect(await requestsDuring(upstream, async () => (data = await find(client, args)))).toBe(1);
    expect(data.forecast?.issued_at).toBe('2026-11-21T11:00:00Z');
  });
});

describe('find_tailwind_segments over 10,000 generated segments, limit 25', () => {
  const startOf = (index: number) => {
    const start = GENERATED[index]?.polyline[0];
    if (!start) throw new Error(`no segment ${index}`);
    return start;
  };

  it('costs at most one upstream request per call, and none for a repeat, wherever it is asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: GENERATED.length - 1 }),
        fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        fc.constantFrom(5_000, 25_000, 100_000),
        async (index, dLat, dLon, radius) => {
          const { upstream, client } = await rig('2026-07-28', generatedCatalog);
          const start = startOf(index);
          const args = {
            latitude: start.lat + dLat,
            longitude: start.lon + dLon,
            radius_m: radius,
            limit: 25,
          };
          const data = await find(client, args);
          // Issue 10: an empty radius still answers (nearest segments and headings), in the same one request.
          expect(upstream.requests()).toBe(1);
          // With none in the radius: the nearest beyond it and the place, before the answer is fitted
          // to its size budget (which may list fewer of the nearest than were read).
          const asked = data.segments.length > 0 ? data.segments.length : NEAREST_BEYOND_RADIUS + 1;
          expect(upstream.locations()).toBeLessThanOrEqual(asked);
          expect(await requestsDuring(upstream, () => find(client, args))).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps to one request per call when calls at several places share one cache', async () => {
    const { upstream, client } = await rig('2026-07-28', generatedCatalog);
    const places = [0, 1234, 2500, 4321, 5000, 6789, 8000, 9999].map(startOf);
    const calls = places.flatMap((place) =>
      [25_000, 60_000].map((radius) => ({
        latitude: place.lat,
        longitude: place.lon,
        radius_m: radius,
        limit: MAX_LIMIT,
      })),
    );
    for (const args of calls) {
      let found = 0;
      const made = await requestsDuring(
        upstream,
        async () => (found = (await find(client, args)).segments.length),
      );
      expect(found).toBeGreaterThanOrEqual(1);
      expect(found).toBeLessThanOrEqual(MAX_LIMIT);
      expect(made).toBeLessThanOrEqual(1);
    }
    // The places are far apart, so each asked upstream at least once; repeats ask nothing.
    expect(upstream.requests()).toBeGreaterThanOrEqual(places.length);
    for (const args of calls) expect(await requestsDuring(upstream, () => find(client, args))).toBe(0);
  });
});
