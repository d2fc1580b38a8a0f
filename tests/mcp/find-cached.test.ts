import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import type { ForecastSource } from '../../src/data/forecast/types.ts';
import type { ForecastHourSet } from '../../src/data/forecast/hour-set.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { generateSegments } from '../support/synthetic-segments.ts';
import { hourSetAhead, REMEMBERED_WINDS, windOnSegment } from '../../src/data/segments/segment-window.ts';
import { segmentWindReport, windReport } from '../../src/mcp/report/segment-report.ts';
import { segmentTimeZone } from '../../src/data/time-zone/zone-at.ts';
import { forecastPointOf } from '../../src/data/segments/segment-geometry.ts';
import { connectClient, ERAS, inProcessFetch } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';

// Issue #13: a segment's best window is computed once per forecast hour and
// reused; an answer from that path must be the one computed afresh.

const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };
const SEGMENTS = loadEmbeddedSegments();

/** The same forecast, its hours copied and left unnamed: nothing downstream is remembered. */
function copying(source: ForecastSource): ForecastSource {
  return {
    id: source.id,
    hourly: async (points) =>
      (await source.hourly(points)).map((series) => {
        if (!series) return series;
        const { hourSet, ...rest } = series;
        expect(hourSet).toBeDefined();
        return { ...rest, hours: series.hours.map((hour) => ({ ...hour })) };
      }),
  };
}

/** The same hours with no name: judged afresh. */
const unnamed = (set: ForecastHourSet): ForecastHourSet => ({ id: null, hours: [...set.hours] });

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('the best window remembered per forecast hour', () => {
  it('names one run of hours per cell and hour, and another the next hour', async () => {
    let now = TEST_NOW;
    const clock = () => now;
    const forecast = createForecastCache(createDemoForecast({ clock }), { clock });
    const point = SEGMENTS[0]?.polyline[0] ?? { lat: 45, lon: 6 };
    const [first] = await forecast.hourly([point]);
    const [again] = await forecast.hourly([point]);
    if (!first || !again) throw new Error('the demo forecast has no series');
    expect(first.hourSet).toBeDefined();
    expect(again.hourSet).toBe(first.hourSet);
    expect(again.hours).toBe(first.hours);
    expect(hourSetAhead(again, now).id).toBe(hourSetAhead(first, now).id);
    // The cache hands out the hours judged: the set is the series' own array, not a copy.
    expect(hourSetAhead(first, now).hours).toBe(first.hours);
    // Another cell has another name.
    const [elsewhere] = await forecast.hourly([{ lat: point.lat + 1, lon: point.lon }]);
    expect(elsewhere?.hourSet).not.toBe(first.hourSet);
    now += 3600_000;
    const [later] = await forecast.hourly([point]);
    expect(later?.hours).not.toBe(first.hours);
    expect(later?.hourSet).not.toBe(first.hourSet);
    expect(later && hourSetAhead(later, now).id).not.toBe(hourSetAhead(first, now - 3600_000).id);
  });

  it('gives each segment, with and without darkness, what a fresh computation gives', async () => {
    const forecast = createForecastCache(createDemoForecast({ clock: () => TEST_NOW }), {
      clock: () => TEST_NOW,
    });
    const segments = SEGMENTS.slice(0, 12);
    const series = await forecast.hourly(segments.map((s) => s.polyline[0] ?? { lat: 0, lon: 0 }));
    let windows = 0;
    for (const [i, segment] of segments.entries()) {
      const s = series[i];
      if (!s) continue;
      const samples = hourSetAhead(s, TEST_NOW);
      for (const includeDarkness of [false, true, false]) {
        const remembered = windOnSegment(segment, samples, { includeDarkness });
        expect(windOnSegment(segment, samples, { includeDarkness })).toBe(remembered);
        expect(remembered).toEqual(windOnSegment(segment, unnamed(samples), { includeDarkness }));
        // Shaped once for the hour, in the segment's zone, as a fresh wind would be shaped.
        const report = segmentWindReport(segment, samples, { includeDarkness });
        expect(segmentWindReport(segment, samples, { includeDarkness })).toBe(report);
        const zone = segmentTimeZone(segment);
        const fresh = windReport(windOnSegment(segment, unnamed(samples), { includeDarkness }), zone);
        expect(fresh).not.toBe(report);
        expect(report.bestWindow).toEqual(fresh.bestWindow);
        expect(report.timeline()).toEqual(fresh.timeline());
        expect(report.windNow()).toEqual(fresh.windNow());
        expect(report.windNow()).toEqual(report.timeline()[0]);
        if (report.bestWindow) windows += 1;
      }
      expect(windOnSegment(segment, samples, { includeDarkness: true })).not.toBe(
        windOnSegment(segment, samples, { includeDarkness: false }),
      );
    }
    expect(windows).toBeGreaterThan(0);
  });

  it('remembers a wind by the name of its hours, whichever array they come in', async () => {
    let now = TEST_NOW;
    const clock = () => now;
    const forecast = createForecastCache(createDemoForecast({ clock }), { clock });
    const segment = SEGMENTS[0];
    if (!segment) throw new Error('no embedded segment');
    const [series] = await forecast.hourly([forecastPointOf(segment)]);
    if (!series) throw new Error('the demo forecast has no series');
    const samples = hourSetAhead(series, now);
    expect(samples.id).not.toBeNull();
    // What the cache does when the hour objects were collected: the same hours again under the same name.
    const again = { id: samples.id, hours: samples.hours.map((hour) => ({ ...hour })) };
    const remembered = windOnSegment(segment, samples);
    expect(windOnSegment(segment, again)).toBe(remembered);
    expect(remembered).toEqual(windOnSegment(segment, unnamed(samples)));
    // The same hours under no name, or the next hour's set, are judged afresh.
    expect(windOnSegment(segment, unnamed(samples))).not.toBe(remembered);
    now += 3600_000;
    const [later] = await forecast.hourly([forecastPointOf(segment)]);
    if (!later) throw new Error('the demo forecast has no series');
    const next = hourSetAhead(later, now);
    expect(next.id).not.toBe(samples.id);
    expect(windOnSegment(segment, next)).not.toBe(remembered);
  });

  it('remembers a bounded number of segments, the least recently used going first', async () => {
    const forecast = createForecastCache(createDemoForecast({ clock: () => TEST_NOW }), {
      clock: () => TEST_NOW,
    });
    const [series] = await forecast.hourly([SEGMENTS[0]?.polyline[0] ?? { lat: 45, lon: 6 }]);
    if (!series) throw new Error('the demo forecast has no series');
    const samples = hourSetAhead(series, TEST_NOW);
    const many = generateSegments(REMEMBERED_WINDS + 1, 3);
    const first = many[0];
    if (!first) throw new Error('no generated segment');
    const remembered = windOnSegment(first, samples);
    expect(windOnSegment(first, samples)).toBe(remembered);
    for (const segment of many.slice(1)) windOnSegment(segment, samples);
    const again = windOnSegment(first, samples);
    expect(again).not.toBe(remembered);
    expect(again).toEqual(remembered);
  });

  it.each(ERAS)('answers find_tailwind_segments byte for byte as without it, protocol %s', async (era) => {
    const cachedDeps = testDeps();
    const freshDeps = testDeps({ forecast: copying(cachedDeps.forecast) });
    const cached = await connectClient(
      TEST_MCP_URL,
      era,
      inProcessFetch(testEndpoint(cachedDeps, UNLIMITED)),
    );
    const fresh = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint(freshDeps, UNLIMITED)));
    clients.push(cached, fresh);
    // Places where segments are found (segment starts) and one where only headings are.
    const places = [
      ...SEGMENTS.filter((_, i) => i % 7 === 0).map(({ polyline: [start] }) => ({
        latitude: start?.lat ?? 0,
        longitude: start?.lon ?? 0,
      })),
      { latitude: -60, longitude: -140 },
    ];
    let found = 0;
    for (let round = 0; round < 2; round++) {
      for (const [i, place] of places.entries()) {
        const args = { ...place, include_darkness: (i + round) % 2 === 0 };
        const call = { name: 'find_tailwind_segments', arguments: args };
        const [a, b] = await Promise.all([cached.callTool(call), fresh.callTool(call)]);
        expect(a.isError).toBeFalsy();
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        found += (a.structuredContent as { segments: unknown[] }).segments.length;
      }
    }
    expect(found).toBeGreaterThan(0);
  });
});
