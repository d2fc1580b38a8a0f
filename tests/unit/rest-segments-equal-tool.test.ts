/**
 * `GET /v1/segments` is the MCP tool `find_tailwind_segments`: for generated points and place names
 * (shared names among them), the REST answer lists the very segments the tool lists, in its order, with
 * its place, windows, statuses, mapping sentence and credits. The tool is called through the SDK's
 * client on the public endpoint, so what is compared is what an assistant receives.
 */
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRestData } from '../../src/app/rest-data.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { SegmentsNearResultSchema } from '../../src/rest/schemas/segment-results.ts';
import { connectClient, inProcessFetch } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from '../support/mcp-deps.ts';

const NAMES = [
  'Paris',
  'Paris, US',
  'Valencia',
  'Springfield',
  'Córdoba',
  'Girona',
  'Alpe d’Huez',
  'Mallorca',
  'Andorra la Vella',
  'Cape Town',
  'Boulder, CO',
  'Hobart',
  'Lagos',
  'Nowhere-by-the-Sea',
];

describe('/v1/segments and find_tailwind_segments', () => {
  const deps = testDeps();
  const data = openRestData({ ...deps, limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) } });
  const rest = createApiHandler({}, { data: async () => data, memo: 0 });
  let client: Client;

  beforeAll(async () => {
    client = await connectClient(
      TEST_MCP_URL,
      '2025',
      inProcessFetch(testEndpoint(deps, { ratePerMinute: 1e6, rateBurst: 1e6 })),
    );
  });
  afterAll(() => client.close());

  const query = fc.oneof(
    fc.record({
      kind: fc.constant('point' as const),
      lat: fc.double({ min: -60, max: 70, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4),
      lon: fc.double({ min: -180, max: 180, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4),
      radius_km: fc.integer({ min: 1, max: 100 }),
      limit: fc.integer({ min: 1, max: 25 }),
    }),
    fc.record({
      kind: fc.constant('place' as const),
      place: fc.constantFrom(...NAMES),
      radius_km: fc.integer({ min: 1, max: 100 }),
      limit: fc.integer({ min: 1, max: 25 }),
    }),
  );

  it('lists what the tool lists, with its place, windows, statuses, mapping and credits', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const args = {
          ...(q.kind === 'point' ? { latitude: q.lat, longitude: q.lon } : { place: q.place }),
          radius_m: q.radius_km * 1000,
          limit: q.limit,
        };
        const search = new URLSearchParams({
          ...(q.kind === 'point' ? { lat: String(q.lat), lon: String(q.lon) } : { place: q.place }),
          radius_km: String(q.radius_km),
          limit: String(q.limit),
        });
        const [result, response] = await Promise.all([
          client.callTool({ name: 'find_tailwind_segments', arguments: args }),
          rest(new Request(`http://api.test/v1/segments?${search}`)),
        ]);
        if (result.isError) {
          // The tool could not place the name: REST says place_not_found, with the tool's words.
          expect(q.kind).toBe('place');
          expect(response.status).toBe(404);
          const problem = (await response.json()) as { code: string; detail: string };
          expect(problem.code).toBe('place_not_found');
          const text = (result.content as { text: string }[])[0]?.text ?? '';
          expect(text).toContain(problem.detail);
          return;
        }
        expect(response.status).toBe(200);
        const tool = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
        const body = SegmentsNearResultSchema.parse(await response.json());
        expect(body.place).toMatchObject({
          name: tool.place.name,
          lat: tool.place.latitude,
          lon: tool.place.longitude,
          time_zone: tool.time_zone,
          resolved_by: tool.place.resolved_by,
          ambiguous: tool.place.ambiguous,
        });
        expect(body.place.alternatives.map((a) => a.name)).toEqual(
          tool.place.alternatives.map((a) => a.name),
        );
        expect(body.radius_km * 1000).toBe(tool.radius_m);
        const listed = tool.segments.length > 0 ? tool.segments : (tool.nearest_beyond_radius ?? []);
        expect(body.segments.map((s) => s.id)).toEqual(listed.map((s) => s.id));
        for (const [i, segment] of body.segments.entries()) {
          const theirs = listed[i];
          expect(segment.within_radius).toBe(tool.segments.length > 0);
          expect(segment.window_status).toBe(theirs?.window_status);
          expect(segment.distance_km).toBeCloseTo((theirs?.distance_from_place_m ?? NaN) / 1000, 1);
          const window = theirs?.best_window ?? null;
          expect(segment.best_window === null).toBe(window === null);
          if (segment.best_window && window) {
            expect(segment.best_window).toMatchObject({
              start: window.start,
              end: window.end,
              signed_tailwind_kmh: window.mean_tailwind_kmh,
              peak_tailwind_kmh: window.peak_tailwind_kmh,
              flags: window.flags,
            });
          }
        }
        expect(body.mapping).toBe(tool.mapping);
        expect(body.attribution).toEqual(tool.attribution);
        expect(body.forecast).toMatchObject({
          source: tool.forecast?.source,
          issued_at: tool.forecast?.issued_at,
          stale: tool.forecast?.stale,
        });
      }),
      { numRuns: 40 },
    );
  });
});
