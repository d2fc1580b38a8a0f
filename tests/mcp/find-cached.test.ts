import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import type { ForecastSource } from '../../src/data/forecast/types.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { generateSegments } from '../support/synthetic-segments.ts';
import { hoursAhead, REMEMBERED_WINDS, windOnSegment } from '../../src/data/segments/segment-window.ts';
import { windReport } from '../../src/mcp/report/segment-report.ts';
import { keyRun, runKeyOf } from '../../src/data/forecast/run-key.ts';
import { forecastPointOf } from '../../src/data/segments/segment-geometry.ts';
import { connectClient, ERAS, inProcessFetch } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';

// Issue #13: a segment's best window is computed once per forecast hour and
// reused; an answer from that path must be the one computed afresh.

const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };
const SEGMENTS = loadEmbeddedSegments();

/** The same forecast, its hours copied into fresh (unfrozen) arrays: nothing downstream is remembered. */
function copying(source: ForecastSource): ForecastSource {
  return {
    id: source.id,
    hourly: async (points) =>
      (await source.hourly(points)).map(
        (series) => series && { ...series, hours: series.hours.map((hour) => ({ ...hour })) },
      ),
  };
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('the best window remembered per forecast hour', () => {
  it('hands out one frozen run of hours per cell and hour, and a new one the next hour', async () => {
    let now = TEST_NOW;
    const clock = () => now;
    const forecast = createForecastCache(createDemoForecast({ clock }), { clock });
    const point = SEGMENTS[0]?.polyline[0] ?? { lat: 45, lon: 6 };
    const [first] = await forecast.hourly([point]);
    const [again] = await forecast.hourly([point]);
    expect(first && again).toBeTruthy();
    if (!first || !again) return;
    expect(Object.isFrozen(first.hours)).toBe(true);
    expect(again.hours).toBe(first.hours);
    expect(hoursAhead(again, now)).toBe(hoursAhead(first, now));
    now += 3600_000;
    const [later] = await forecast.hourly([point]);
    expect(later?.hours).not.toBe(first.hours);
    expect(later && hoursAhead(later, now)).not.toBe(hoursAhead(first, now - 3600_000));
  });

  it('gives each segment, with and without darkness, what a fresh computation gives', async () => {
    const forecast = createForecastCache(createDemoForecast({ clock: () => TEST_NOW }), {
      clock: () => TEST_NOW,
    });
    const segments = SEGMENTS.slice(0, 12);
    const series = await forecast.hourly(segments.map((s) => s.polyline[0] ?? { lat: 0, lon: 0 }));
    for (const [i, segment] of segments.entries()) {
      const s = series[i];
      if (!s) continue;
      const samples = hoursAhead(s, TEST_NOW);
      for (const includeDarkness of [false, true, false]) {
        const remembered = windOnSegment(segment, samples, { includeDarkness });
        expect(windOnSegment(segment, samples, { includeDarkness })).toBe(remembered);
        expect(Object.isFrozen(remembered?.timeline)).toBe(true);
        expect(remembered).toEqual(windOnSegment(segment, [...samples], { includeDarkness }));
        // Shaped once for the hour, as a fresh wind would be shaped.
        const report = windReport(remembered, 'Europe/Paris');
        expect(windReport(remembered, 'Europe/Paris')).toBe(report);
        const fresh = windReport(windOnSegment(segment, [...samples], { includeDarkness }), 'Europe/Paris');
        expect(report.bestWindow).toEqual(fresh.bestWindow);
        expect(report.timeline()).toEqual(fresh.timeline());
        expect(report.windNow()).toEqual(fresh.windNow());
        expect(report.windNow()).toEqual(report.timeline()[0]);
      }
      expect(windOnSegment(segment, samples, { includeDarkness: true })).not.toBe(
        windOnSegment(segment, samples, { includeDarkness: false }),
      );
    }
  });

  it('remembers a wind by its run of hours, whichever array the cache hands the run out in', async () => {
    let now = TEST_NOW;
    const clock = () => now;
    const forecast = createForecastCache(createDemoForecast({ clock }), { clock });
    const segment = SEGMENTS[0];
    if (!segment) throw new Error('no embedded segment');
    const [series] = await forecast.hourly([forecastPointOf(segment)]);
    if (!series) throw new Error('the demo forecast has no series');
    const samples = hoursAhead(series, now);
    const key = runKeyOf(samples);
    expect(key).toBeDefined();
    expect(runKeyOf(series.hours)).toBeDefined();
    // What the cache does when the hour objects were collected: the same hours again under the same key.
    const again = keyRun(Object.freeze(samples.map((hour) => Object.freeze({ ...hour }))), key ?? {});
    const remembered = windOnSegment(segment, samples);
    expect(windOnSegment(segment, again)).toBe(remembered);
    expect(remembered).toEqual(windOnSegment(segment, [...samples]));
    // Another run under no key, or the next hour's run, is judged afresh.
    expect(windOnSegment(segment, Object.freeze([...samples]))).not.toBe(remembered);
    now += 3600_000;
    const [later] = await forecast.hourly([forecastPointOf(segment)]);
    if (!later) throw new Error('the demo forecast has no series');
    expect(runKeyOf(hoursAhead(later, now))).not.toBe(key);
  });

  it('remembers a bounded number of segments, the least recently used going first', async () => {
    const forecast = createForecastCache(createDemoForecast({ clock: () => TEST_NOW }), {
      clock: () => TEST_NOW,
    });
    const [series] = await forecast.hourly([SEGMENTS[0]?.polyline[0] ?? { lat: 45, lon: 6 }]);
    if (!series) throw new Error('the demo forecast has no series');
    const samples = hoursAhead(series, TEST_NOW);
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
