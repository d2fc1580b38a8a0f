import type { Client } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPASS_POINTS } from '../../src/core/compass.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import {
  FindTailwindSegmentsOutputSchema,
  MAX_RADIUS_M,
  NEAREST_BEYOND_RADIUS,
  RIDE_REACH_M,
} from '../../src/mcp/schemas/find.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { addYourOwn } from '../../src/mcp/tools/find-tailwind-segments.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testEndpoint } from '../support/mcp-deps.ts';

const segments = loadEmbeddedSegments();
const catalog = createSegmentCatalog(segments);
/** Places riders ask about that the catalog does not cover, on three continents and an island. */
const EMPTY_PLACES = [
  { name: 'Tokyo', latitude: 35.68, longitude: 139.69 },
  { name: 'Taipei', latitude: 25.03, longitude: 121.56 },
  { name: 'Ponta Delgada, Azores', latitude: 37.74, longitude: -25.67 },
  { name: 'Ushuaia', latitude: -54.8, longitude: -68.3 },
];

describe('find_tailwind_segments when no segment is within the radius', () => {
  let client: Client;
  let outputSchema: Record<string, unknown>;

  beforeAll(async () => {
    client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint()));
    const { tools } = await client.listTools();
    outputSchema = (tools.find((t) => t.name === 'find_tailwind_segments')?.outputSchema ?? {}) as Record<
      string,
      unknown
    >;
  });
  afterAll(() => client.close());

  it.each(EMPTY_PLACES)(
    'answers $name with the nearest segments and eight headings, said to be headings',
    async (place) => {
      const coordinates = { latitude: place.latitude, longitude: place.longitude };
      expect(catalog.near({ lat: place.latitude, lon: place.longitude }, 25_000, 10)).toHaveLength(0);
      const result = await client.callTool({ name: 'find_tailwind_segments', arguments: coordinates });
      expect(result.isError).toBeFalsy();
      const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
      expect(data.segments).toEqual([]);

      const beyond = data.nearest_beyond_radius ?? [];
      expect(beyond.length).toBeLessThanOrEqual(NEAREST_BEYOND_RADIUS);
      const distances = beyond.map((s) => s.distance_from_place_m);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      for (const s of beyond) expect(s.distance_from_place_m).toBeGreaterThan(data.radius_m);
      // The closest by a plain scan of the whole catalog, not by the index the tool uses, within a ride's reach.
      const here = { lat: place.latitude, lon: place.longitude };
      const scan = segments
        .map((s) => ({ id: s.id, m: greatCircleM(here, s.polyline[0] ?? here) }))
        .sort((a, b) => a.m - b.m)
        .slice(0, NEAREST_BEYOND_RADIUS)
        .filter((s) => s.m <= RIDE_REACH_M);
      expect(beyond.map((s) => s.id)).toEqual(scan.map((s) => s.id));

      const headings = data.headings ?? [];
      expect(headings.map((h) => [h.heading, h.bearing_deg])).toEqual(
        COMPASS_POINTS.map((p, i) => [p, i * 45]),
      );
      for (const h of headings) {
        if (h.best_window) expect(h.window_status).toBe('found');
        else expect(h.window_status).not.toBe('found');
      }
      expect(data.add_your_own).toMatch(/\/mcp\/rider/);
      expect(data.forecast?.source).toBe('demo');

      const text = resultText(result);
      expect(text).toMatch(/^No segment within 25 km of /);
      expect(text).toMatch(/HEADINGS, NOT SEGMENTS/);
      for (const h of headings) expect(text).toContain(`- heading ${h.heading} (${h.bearing_deg}°): `);
      for (const s of beyond) expect(text).toContain(`[${s.id}]`);
      if (beyond.length === 0) expect(text).toContain(`No catalog segment within ${RIDE_REACH_M / 1000} km`);
      expect(text).toMatch(/NOT real weather/);

      // The same answer is valid under both JSON Schema dialects clients use.
      for (const ajv of [new Ajv({ strict: false }), new Ajv2020({ strict: false })]) {
        addFormats.default(ajv);
        const schema = { ...outputSchema };
        delete schema['$schema'];
        const validate = ajv.compile(schema);
        expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
      }
    },
  );

  it('lists beyond the radius only what is a ride away, and hints only what can help', async () => {
    // Boulder: Lookout Mountain and Mount Blue Sky are 30–37 km away; Mount Lemmon, 992 km, is not a ride.
    const boulder = { latitude: 40.015, longitude: -105.2706 };
    const result = await client.callTool({ name: 'find_tailwind_segments', arguments: boulder });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    const beyond = data.nearest_beyond_radius ?? [];
    expect(beyond.map((s) => s.id)).toEqual(['us-lookout-mountain', 'us-mount-blue-sky']);
    expect(resultText(result)).toMatch(/Try a larger radius_m \(up to 100000\)/);
    expect(resultText(result)).not.toMatch(/us-mount-lemmon/);
    // At the largest radius a larger one is not suggested; far from any segment, it says so plainly.
    const azores = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { latitude: 37.74, longitude: -25.67, radius_m: MAX_RADIUS_M },
    });
    const text = resultText(azores);
    expect(text).not.toMatch(/larger radius/);
    expect(text).toMatch(/No catalog segment within 300 km of .*: none is a ride from here/);
    expect(FindTailwindSegmentsOutputSchema.parse(azores.structuredContent).nearest_beyond_radius).toEqual(
      [],
    );
  });

  it('names the tools that help: add_my_segment and get_route_wind at the rider address', () => {
    const urls = { mcp: 'https://example.test/mcp' } as unknown as ToolContext['urls'];
    const rider = addYourOwn({ caller: { kind: 'rider' }, urls } as unknown as ToolContext);
    expect(rider).toMatch(/add_my_segment/);
    expect(rider).toMatch(/get_route_wind/);
    expect(rider).not.toMatch(/operator|segments:import/);
    const anonymous = addYourOwn({ caller: { kind: 'anonymous' }, urls } as unknown as ToolContext);
    expect(anonymous).toMatch(/get_route_wind/);
    expect(anonymous).toMatch(/https:\/\/example\.test\/mcp\/rider, add_my_segment/);
  });

  it('says in its output schema that headings are not segments', () => {
    const headings = (outputSchema['properties'] as Record<string, { description?: string }>)['headings'];
    expect(headings?.description).toMatch(/HEADINGS, NOT SEGMENTS/);
  });

  it('in the polar night says dark for every heading, and offers night windows to a rider with lights', async () => {
    const longyearbyen = { latitude: 78.22, longitude: 15.65 };
    const dark = FindTailwindSegmentsOutputSchema.parse(
      (await client.callTool({ name: 'find_tailwind_segments', arguments: longyearbyen })).structuredContent,
    );
    expect(new Set(dark.headings?.map((h) => h.window_status))).toEqual(new Set(['dark']));
    const lit = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { ...longyearbyen, include_darkness: true },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(lit.structuredContent);
    const windows = (data.headings ?? []).flatMap((h) => (h.best_window ? [h.best_window] : []));
    expect(windows.length).toBeGreaterThan(0);
    for (const window of windows) expect(window.flags).toContain('dark');
    // No dawn or dusk in the polar night: the answer's daylight has no day at all.
    expect(data.daylight).toEqual([]);
    expect(resultText(lit)).toMatch(/watch out: dark/);
  });

  it('keeps the headings out of an answer that has segments', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { latitude: 45.06, longitude: 6.03 },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.segments.length).toBeGreaterThan(0);
    expect(data).toMatchObject({ nearest_beyond_radius: null, headings: null, add_your_own: null });
    expect(resultText(result)).not.toMatch(/HEADINGS/);
  });
});
