import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polylineLegs, segmentWind } from '../../src/core/segment-wind.ts';
import { demoWindAt } from '../../src/data/forecast/demo.ts';
import { PLANS } from '../../src/core/plans.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { GetSegmentOutputSchema } from '../../src/mcp/schemas/segment.ts';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { connectClient, ERAS, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testEndpoint } from '../support/mcp-deps.ts';

const HOUR = Math.floor(TEST_NOW / 3_600_000) * 3600;
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

describe.each(ERAS)('public MCP tools, protocol %s', (era) => {
  let client: Client;

  beforeAll(async () => {
    await ensureGazetteer();
    client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint()));
  });
  afterAll(() => client.close());

  it('lists the three public tools with titles, schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'find_tailwind_segments',
      'get_route_wind',
      'get_segment',
    ]);
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: true,
      });
    }
  });

  it("finds segments near Bourg-d'Oisans, most ridden first, each within the radius", async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: "Bourg-d'Oisans" },
    });
    expect(result.isError).toBeFalsy();
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.place).toMatchObject({
      name: "Le Bourg-d'Oisans, FR",
      country_code: 'FR',
      resolved_by: 'gazetteer',
    });
    expect(data.place.latitude).toBeCloseTo(45.055, 2);
    expect(data.segments.length).toBeGreaterThanOrEqual(5);
    expect(data.segments.every((s) => s.distance_from_place_m <= 25_000)).toBe(true);
    const ranks = data.segments.map((s) => s.popularity_rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(data.forecast).toMatchObject({
      source: 'demo',
      horizon_hours: 72,
      stale: false,
      issued_at: iso(HOUR),
    });
    expect(data.forecast?.note).toMatch(/NOT real weather/);
    expect(data.attribution.join('\n')).toMatch(/GeoNames/);
    expect(resultText(result)).toContain(data.segments[0]?.name ?? '?');
  });

  it('finds the same segments from coordinates, and says they were taken as given', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { latitude: 45.06, longitude: 6.03, radius_m: 25_000, limit: 3 },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.place).toMatchObject({
      resolved_by: 'coordinates',
      latitude: 45.06,
      longitude: 6.03,
      query: null,
    });
    expect(data.segments).toHaveLength(3);
  });

  it('gives each best window within the next 72 hours, in brief as get_segment gives it whole', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: "Bourg-d'Oisans" },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    const found = data.segments.flatMap((s) => (s.best_window ? [{ id: s.id, w: s.best_window }] : []));
    expect(found.length).toBeGreaterThan(0);
    for (const { id, w } of found) {
      expect(Date.parse(w.start)).toBeGreaterThanOrEqual(HOUR * 1000);
      expect(Date.parse(w.end)).toBeLessThanOrEqual((HOUR + 72 * 3600) * 1000);
      expect(w.peak_tailwind_kmh).toBeGreaterThanOrEqual(w.mean_tailwind_kmh);
      // The peak is a tailwind hour (the REST threshold: at least 1 km/h along the track).
      expect(w.peak_tailwind_kmh).toBeGreaterThanOrEqual(1);
      const whole = GetSegmentOutputSchema.parse(
        (await client.callTool({ name: 'get_segment', arguments: { segment_id: id } })).structuredContent,
      ).best_window;
      expect(whole).toMatchObject({
        start: w.start,
        end: w.end,
        peak: { tailwind_kmh: w.peak_tailwind_kmh },
        mean_tailwind_kmh: w.mean_tailwind_kmh,
        weather: { min_temperature_c: w.min_temperature_c, max_temperature_c: w.max_temperature_c },
        flags: w.flags,
      });
    }
    // The daylight is said once, for the place: a day for each the 72 hours touch.
    expect(data.daylight.length).toBeGreaterThanOrEqual(3);
    for (const day of data.daylight)
      expect(Date.parse(day.civil_dusk ?? '')).toBeGreaterThan(Date.parse(day.civil_dawn ?? ''));
  });

  it('reads one segment: route, the wind now by the REST formula over its legs, and the locked timeline', async () => {
    const found = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { latitude: 45.06, longitude: 6.03 },
    });
    const id = FindTailwindSegmentsOutputSchema.parse(found.structuredContent).segments[0]?.id ?? '';
    const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: id } });
    expect(result.isError).toBeFalsy();
    const data = GetSegmentOutputSchema.parse(result.structuredContent);
    expect(data.segment.id).toBe(id);
    expect(data.segment.polyline.length).toBeGreaterThanOrEqual(2);
    expect(data.timeline).toBeUndefined();
    expect(data.wind_now?.time).toBe(iso(HOUR));

    const points = data.segment.polyline.map(([lat = NaN, lon = NaN]) => ({ lat, lon }));
    const start = data.segment.start;
    const end = data.segment.end;
    const mid = { lat: (start.latitude + end.latitude) / 2, lon: (start.longitude + end.longitude) / 2 };
    const grid = { lat: Math.round(mid.lat / 0.05) * 0.05, lon: Math.round(mid.lon / 0.05) * 0.05 };
    const candidates = [mid, grid].map((p) => demoWindAt(p, HOUR));
    const expected = candidates.map((w) => segmentWind(polylineLegs(points), w.speedKmh, w.directionDeg));
    expect(expected).toContainEqual({
      signedKmh: data.wind_now?.tailwind_kmh,
      crosswindKmh: data.wind_now?.crosswind_kmh,
      effect: data.wind_now?.effect,
    });

    const [locked] = data.locked;
    expect(locked?.feature).toBe('hourly_timeline');
    const promising = PLANS.filter((p) => p.features.some((f) => f === locked?.description)).map((p) => p.id);
    expect(locked?.plans).toEqual(promising);
    expect(promising).toEqual(['pro_monthly', 'pro_annual', 'pro_lifetime']);
    expect(locked?.pricing_url).toBe('http://localhost:3000/pricing?plan=pro_monthly');
    // The public address has no rider: the chance of a tailwind is locked too, and never computed.
    expect(data.locked.map((l) => l.feature)).toEqual(['hourly_timeline', 'tailwind_chance']);
    expect(data.best_window?.chance).toBeUndefined();
    expect(data.ensemble).toBeUndefined();
  });

  it('finds a segment by its name as a place', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: "Alpe d'Huez" },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.place.resolved_by).toBe('segment');
    expect(data.segments[0]?.distance_from_place_m).toBe(0);
  });
});
