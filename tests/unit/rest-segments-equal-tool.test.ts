/**
 * `GET /v1/segments` and the MCP tool `find_tailwind_segments` are built from the same parts below
 * both surfaces (decision 0035), but each bounds its answer its own way: the tool cuts place
 * alternatives and segments beyond the radius to fit its byte budget, the REST list is bounded by
 * `limit` alone. For generated points (many near catalog segments) and place names (shared names
 * among them), the two list the very same segments in the same order, with the same place, windows,
 * statuses, mapping sentence and credits, wherever neither was cut; where one was, the other's list
 * starts with it, and the cut is the budget's or the limit's. The tool is called through the SDK's
 * client on the public endpoint, so what is compared is what an assistant receives.
 */
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greatCircleM } from '../../src/core/distance.ts';
import { roundHalfAway } from '../../src/core/round.ts';
import { startOf } from '../../src/data/segments/segment-geometry.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import {
  FindTailwindSegmentsOutputSchema,
  type FindTailwindSegmentsOutput,
} from '../../src/mcp/schemas/find.ts';
import { ANSWER_BUDGET } from '../../src/mcp/size-budgets.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { MAX_LIMIT } from '../../src/rest/schemas/data-queries.ts';
import { SegmentsNearResultSchema, type SegmentsNearResult } from '../../src/rest/schemas/segment-results.ts';
import { NEAREST_BEYOND_RADIUS, RIDE_REACH_M } from '../../src/service/segments-around.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
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

const SEGMENTS = loadEmbeddedSegments();
const STARTS = SEGMENTS.map(startOf);

/**
 * A tool answer this far under its budget was never cut: the fitting stops at the first size under
 * the budget less the envelope (300 bytes), and each item it cuts (an alternative, or a segment beyond
 * the radius with its line of the summary) weighs well under 1 KB.
 */
const NEVER_CUT_BELOW = ANSWER_BUDGET.find_tailwind_segments - 300 - 1000;

/** The tool's answer in the bytes its fitting counts: the structured data and the summary text. */
function toolBytes(data: unknown, summary: string): number {
  return Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(summary));
}

const isPrefix = (short: readonly string[], long: readonly string[]) =>
  short.length <= long.length && short.every((id, i) => long[i] === id);

interface Query {
  readonly where: { readonly place: string } | { readonly lat: number; readonly lon: number };
  readonly radius_km: number;
  readonly limit: number;
}

const coordinate = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4);

/** Points anywhere, points within a few km of a catalog segment's start, and place names. */
const where = fc.oneof(
  fc.record({ lat: coordinate(-60, 70), lon: coordinate(-180, 180) }),
  fc
    .record({
      start: fc.constantFrom(...STARTS),
      dLat: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
      dLon: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
    })
    .map(({ start, dLat, dLon }) => ({
      lat: Math.round((start.lat + dLat) * 1e4) / 1e4,
      lon: Math.round((start.lon + dLon) * 1e4) / 1e4,
    })),
  fc.constantFrom(...NAMES).map((place) => ({ place })),
);

const query: fc.Arbitrary<Query> = fc.record({
  where,
  radius_km: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 100 })),
  // Small limits often: they are where the REST list is cut by its limit and the tool's is not.
  limit: fc.oneof(fc.integer({ min: 1, max: NEAREST_BEYOND_RADIUS }), fc.integer({ min: 1, max: MAX_LIMIT })),
});

function restPath(q: Query): string {
  const place =
    'place' in q.where ? { place: q.where.place } : { lat: String(q.where.lat), lon: String(q.where.lon) };
  return `/v1/segments?${new URLSearchParams({ ...place, radius_km: String(q.radius_km), limit: String(q.limit) })}`;
}

function toolArguments(q: Query) {
  const place =
    'place' in q.where ? { place: q.where.place } : { latitude: q.where.lat, longitude: q.where.lon };
  return { ...place, radius_m: q.radius_km * 1000, limit: q.limit };
}

describe('/v1/segments and find_tailwind_segments', () => {
  const deps = testDeps();
  const data = { ...deps, limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) } };
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

  /** Both answers for one query: REST's body and the tool's data, or the tool's error text. */
  async function both(q: Query) {
    const [result, response] = await Promise.all([
      client.callTool({ name: 'find_tailwind_segments', arguments: toolArguments(q) }),
      rest(new Request(`http://api.test${restPath(q)}`)),
    ]);
    const text = resultText(result);
    if (result.isError) return { kind: 'error', error: text, response } as const;
    expect(response.status).toBe(200);
    const tool = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    const body = SegmentsNearResultSchema.parse(await response.json());
    return {
      kind: 'answer',
      tool,
      body,
      cut: toolBytes(result.structuredContent, text) >= NEVER_CUT_BELOW,
    } as const;
  }

  const toolListed = (tool: FindTailwindSegmentsOutput) =>
    tool.segments.length > 0 ? tool.segments : (tool.nearest_beyond_radius ?? []);

  /** What neither surface cuts: the place, the radius, the forecast and the mapping. */
  function expectSamePlace(body: SegmentsNearResult, tool: FindTailwindSegmentsOutput): void {
    expect(body.place).toMatchObject({
      name: tool.place.name,
      lat: tool.place.latitude,
      lon: tool.place.longitude,
      time_zone: tool.time_zone,
      resolved_by: tool.place.resolved_by,
      ambiguous: tool.place.ambiguous,
    });
    expect(body.radius_km * 1000).toBe(tool.radius_m);
    expect(body.mapping).toBe(tool.mapping);
    expect(body.forecast).toMatchObject({
      source: tool.forecast?.source,
      issued_at: tool.forecast?.issued_at,
      stale: tool.forecast?.stale,
    });
  }

  it('list the same segments in the same order where neither is cut; where one is, the budget or the limit cut it', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const answers = await both(q);
        if (answers.kind === 'error') {
          // The tool could not place the name: REST says place_not_found, with the same words.
          expect('place' in q.where).toBe(true);
          expect(answers.response.status).toBe(404);
          const problem = (await answers.response.json()) as { code: string; detail: string };
          expect(problem.code).toBe('place_not_found');
          expect(answers.error).toContain(problem.detail);
          return;
        }
        const { tool, body, cut } = answers;
        expectSamePlace(body, tool);
        const listed = toolListed(tool);
        const restIds = body.segments.map((s) => s.id);
        const toolIds = listed.map((s) => s.id);
        const restAlternatives = body.place.alternatives.map((a) => a.name);
        const toolAlternatives = tool.place.alternatives.map((a) => a.name);
        // Within the radius neither cuts anything but by limit, the same limit.
        if (tool.segments.length > 0) expect(restIds).toEqual(toolIds);
        // One list starts with the other; a shorter REST list is its limit's, a shorter tool list its budget's.
        expect(isPrefix(restIds, toolIds) || isPrefix(toolIds, restIds)).toBe(true);
        if (restIds.length < toolIds.length) expect(restIds).toHaveLength(q.limit);
        if (toolIds.length < restIds.length) expect(cut).toBe(true);
        // The credits are those of the segments listed: the same lists credit the same sources (a
        // longer list may add a licence, as near Monaco, where the nearest beyond is a discovered climb
        // and the next ones hand-traced).
        if (restIds.join() === toolIds.join()) expect(body.attribution).toEqual(tool.attribution);
        expect(isPrefix(toolAlternatives, restAlternatives)).toBe(true);
        if (toolAlternatives.length < restAlternatives.length) expect(cut).toBe(true);
        // The segments both list agree in every figure both give.
        for (const [i, segment] of body.segments.slice(0, listed.length).entries()) {
          const theirs = listed[i];
          expect(segment.within_radius).toBe(tool.segments.length > 0);
          expect(segment.popularity_rank).toBe(theirs?.popularity_rank);
          expect(segment.window_status).toBe(theirs?.window_status);
          // Both from the same whole metres; REST gives tenths of a km, rounded half away from zero.
          expect(segment.distance_km).toBe(roundHalfAway((theirs?.distance_from_place_m ?? NaN) / 1000, 1));
          const window = theirs?.best_window ?? null;
          expect(segment.best_window === null).toBe(window === null);
          if (segment.best_window && window) {
            expect(segment.best_window).toMatchObject({
              start: window.start,
              end: window.end,
              signed_tailwind_kmh: window.mean_tailwind_kmh,
              peak_tailwind_kmh: window.peak_tailwind_kmh,
              min_temperature_c: window.min_temperature_c,
              max_temperature_c: window.max_temperature_c,
              flags: window.flags,
            });
          }
        }
        if (!cut && (tool.segments.length > 0 || restIds.length < q.limit)) {
          // Neither was cut: the very same lists.
          expect(restIds).toEqual(toolIds);
          expect(restAlternatives).toEqual(toolAlternatives);
          compared += 1;
        }
      }),
      {
        numRuns: 60,
        // A segment 950 m away: 1.0 km on REST (rounded half away from zero), 950 m in the tool.
        examples: [[{ where: { lat: 42.4489, lon: 1.4908 }, radius_km: 1, limit: 1 }]],
      },
    );
    // The property compared whole lists, not only prefixes.
    expect(compared).toBeGreaterThan(10);
  });

  it('REST lists are bounded by limit, never by the tool’s byte budget', async () => {
    const within = (point: { lat: number; lon: number }, m: number) =>
      STARTS.filter((start) => greatCircleM(point, start) <= m).length;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const response = await rest(new Request(`http://api.test${restPath(q)}`));
        if (response.status !== 200) return;
        const body = SegmentsNearResultSchema.parse(await response.json());
        expect(body.segments.length).toBeLessThanOrEqual(q.limit);
        const point = { lat: body.place.lat, lon: body.place.lon };
        const radiusM = body.radius_km * 1000;
        // Counted here from the segments' starts, with a metre's slack each way for the catalog's rounding.
        const [fewest, most] = body.segments.some((s) => s.within_radius)
          ? [within(point, radiusM - 1), within(point, radiusM + 1)].map((n) => Math.min(q.limit, n))
          : [within(point, RIDE_REACH_M - 1), within(point, RIDE_REACH_M + 1)].map((n) =>
              Math.min(q.limit, NEAREST_BEYOND_RADIUS, n),
            );
        expect(body.segments.length).toBeGreaterThanOrEqual(fewest ?? NaN);
        expect(body.segments.length).toBeLessThanOrEqual(most ?? NaN);
      }),
      { numRuns: 80 },
    );
  });

  it('gives all a busy name’s places and the nearest beyond the radius where the tool’s budget cuts them (Paris)', async () => {
    const q: Query = { where: { place: 'Paris' }, radius_km: 25, limit: 10 };
    const answers = await both(q);
    if (answers.kind === 'error') throw new Error(answers.error);
    const { tool, body, cut } = answers;
    expect(cut).toBe(true);
    expect(tool.segments).toEqual([]);
    const toolBeyond = (tool.nearest_beyond_radius ?? []).map((s) => s.id);
    expect(toolBeyond.length).toBeLessThan(NEAREST_BEYOND_RADIUS);
    expect(body.segments.map((s) => s.id)).toHaveLength(NEAREST_BEYOND_RADIUS);
    expect(
      isPrefix(
        toolBeyond,
        body.segments.map((s) => s.id),
      ),
    ).toBe(true);
    expect(body.place.alternatives.length).toBeGreaterThan(tool.place.alternatives.length);
  });

  it('gives a full list of 25 however long its body (Andorra: past the tool’s whole budget)', async () => {
    const response = await rest(
      new Request('http://api.test/v1/segments?lat=42.556&lon=1.533&radius_km=100&limit=25'),
    );
    const text = await response.text();
    const body = SegmentsNearResultSchema.parse(JSON.parse(text));
    expect(body.segments).toHaveLength(MAX_LIMIT);
    expect(Buffer.byteLength(text)).toBeGreaterThan(ANSWER_BUDGET.find_tailwind_segments);
  });

  it('lists no more of the nearest beyond the radius than limit asks', async () => {
    for (const limit of [1, 2]) {
      const q: Query = { where: { place: 'Paris' }, radius_km: 25, limit };
      const answers = await both(q);
      if (answers.kind === 'error') throw new Error(answers.error);
      expect(answers.body.segments).toHaveLength(limit);
      expect(
        isPrefix(
          answers.body.segments.map((s) => s.id),
          toolListed(answers.tool).map((s) => s.id),
        ),
      ).toBe(true);
    }
  });
});
