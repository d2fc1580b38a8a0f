import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluateAlerts, FORECAST_BATCH_SEGMENTS } from '../../src/alerts/evaluate.ts';
import { HOUR_S, type TailwindWindow } from '../../src/core/tailwind-window.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import type { WindHour } from '../../src/core/wind-hour.ts';
import { FORECAST_HOURS, ForecastError } from '../../src/data/forecast/types.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import type { Segment } from '../../src/data/segments/types.ts';
import { resolveUrls } from '../../src/http/public-urls.ts';
import { forecastForSegments } from '../../src/mcp/report/forecast.ts';
import { segmentWindReport } from '../../src/mcp/report/segment-report.ts';
import { bearingOf, forecastPointOf } from '../../src/data/segments/segment-geometry.ts';
import { hoursAhead, segmentBestWindow } from '../../src/data/segments/segment-window.ts';
import type { Store } from '../../src/store/database.ts';
import { listRecentAlerts } from '../../src/store/repositories/alerts.ts';
import { createRider } from '../../src/store/repositories/riders.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { failingForecast, testDeps } from '../support/mcp-deps.ts';
import {
  catalog,
  countingForecast,
  demoAt,
  freshStore,
  proRider,
  removeTestStores,
  TEST_NOW,
} from './helpers.ts';

let store: Store;
beforeEach(async () => {
  store = await freshStore();
});
afterEach(async () => {
  await store.close();
});
afterAll(removeTestStores);

const fixedNow = () => TEST_NOW;

function segment(id: string): Segment {
  const found = catalog.get(id);
  if (!found) throw new Error(`no segment ${id} in the embedded catalog`);
  return found;
}

/** The window the evaluator should find, straight from the demo forecast. */
async function windowOf(id: string, nowMs = TEST_NOW): Promise<TailwindWindow> {
  const [series] = await createDemoForecast({ clock: () => nowMs }).hourly([forecastPointOf(segment(id))]);
  const window = series && segmentBestWindow(segment(id), series, nowMs);
  if (!window) throw new Error(`no tailwind window on ${id}`);
  return window;
}

describe('evaluateAlerts', () => {
  it('records one alert for a window that reaches the threshold, even when the job runs twice', async () => {
    const rider = await proRider(store);
    const window = await windowOf('gb-box-hill');
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 10 });
    const deps = { store, catalog, forecast: demoAt(fixedNow), now: fixedNow };

    const first = await evaluateAlerts(deps);
    expect(first).toMatchObject({ watchesChecked: 1, segmentsForecast: 1, alertsRecorded: 1, error: null });
    const second = await evaluateAlerts(deps);
    expect(second).toMatchObject({ alertsRecorded: 0, alertsAlreadyKnown: 1, error: null });

    const alerts = await listRecentAlerts(store.db, rider.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      segmentId: 'gb-box-hill',
      windowStart: window.start,
      windowEnd: window.end,
      peakTailwindKmh: window.peak.tailwindKmh,
      createdAt: TEST_NOW / 1000,
      deliveredAt: null,
      attempts: 0,
    });
  });

  it('alerts on the same window get_my_watchlist shows (the MCP report path)', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'fr-col-du-tourmalet-luz', { thresholdKmh: 5 });
    await evaluateAlerts({ store, catalog, forecast: demoAt(fixedNow), now: fixedNow });
    const context = {
      ...testDeps(),
      caller: { kind: 'anonymous' as const },
      urls: resolveUrls({}, new URL('http://localhost')),
    };
    const tourmalet = segment('fr-col-du-tourmalet-luz');
    const forecast = await forecastForSegments(context, [tourmalet]);
    const report = segmentWindReport(tourmalet, forecast.samples[0] ?? null);
    const [alert] = await listRecentAlerts(store.db, rider.id);
    expect(report.bestWindow).not.toBeNull();
    expect(alert?.windowStart).toBe(report.bestWindow && Date.parse(report.bestWindow.start) / 1000);
    expect(alert?.windowEnd).toBe(report.bestWindow && Date.parse(report.bestWindow.end) / 1000);
    expect(alert?.peakTailwindKmh).toBe(report.bestWindow?.peak.tailwind_kmh);
  });

  it('records an alert when the peak equals the threshold and none when the threshold is 0.1 km/h above', async () => {
    const peak = (await windowOf('es-sa-calobra')).peak.tailwindKmh;
    const at = await proRider(store);
    const above = await proRider(store);
    await watchSegment(store.db, at.id, 'es-sa-calobra', { thresholdKmh: peak });
    await watchSegment(store.db, above.id, 'es-sa-calobra', { thresholdKmh: peak + 0.1 });
    const summary = await evaluateAlerts({ store, catalog, forecast: demoAt(fixedNow), now: fixedNow });
    expect(summary).toMatchObject({ watchesChecked: 2, alertsRecorded: 1 });
    expect(await listRecentAlerts(store.db, at.id)).toHaveLength(1);
    expect(await listRecentAlerts(store.db, above.id)).toEqual([]);
  });

  it('records nothing for a watch with alerts off', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill', { alertsOn: false, thresholdKmh: 5 });
    const forecast = demoAt(fixedNow);
    const summary = await evaluateAlerts({ store, catalog, forecast, now: fixedNow });
    expect(summary).toMatchObject({ watchesChecked: 0, alertsRecorded: 0, forecastCalls: 0 });
    expect(forecast.calls).toEqual([]);
    expect(await listRecentAlerts(store.db, rider.id)).toEqual([]);
  });

  it('alerts riders in a Pro trial but not free riders (alerts are a Pro feature)', async () => {
    const nowS = TEST_NOW / 1000;
    const free = await createRider(store.db, { email: 'free@example.com' });
    const lapsed = await createRider(store.db, { email: 'lapsed@example.com', trialEndsAt: nowS });
    const trial = await createRider(store.db, { email: 'trial@example.com', trialEndsAt: nowS + 1 });
    for (const rider of [free, lapsed, trial]) {
      await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    }
    const summary = await evaluateAlerts({ store, catalog, forecast: demoAt(fixedNow), now: fixedNow });
    expect(summary).toMatchObject({ watchesChecked: 3, watchesWithoutPro: 2, alertsRecorded: 1 });
    expect(await listRecentAlerts(store.db, trial.id)).toHaveLength(1);
    expect(await listRecentAlerts(store.db, free.id)).toEqual([]);
    expect(await listRecentAlerts(store.db, lapsed.id)).toEqual([]);
  });

  it('asks the forecast once per run for many watches of the same and different segments', async () => {
    const ids = ['gb-box-hill', 'fr-alpe-d-huez', 'be-koppenberg', 'it-monte-zoncolan'];
    for (let r = 0; r < 6; r++) {
      const rider = await proRider(store);
      for (const id of ids.slice(r % 2, (r % 2) + 3)) await watchSegment(store.db, rider.id, id);
    }
    const forecast = demoAt(fixedNow);
    const summary = await evaluateAlerts({ store, catalog, forecast, now: fixedNow });
    expect(summary).toMatchObject({ watchesChecked: 18, segmentsForecast: 4, forecastCalls: 1 });
    expect(forecast.calls).toHaveLength(1);
    expect(forecast.calls[0]).toHaveLength(4);
    expect(forecast.calls[0]).toEqual(expect.arrayContaining(ids.map((id) => forecastPointOf(segment(id)))));
  });

  it('reports upstream requests when the forecast is the cache', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill');
    await watchSegment(store.db, rider.id, 'fr-alpe-d-huez');
    const forecast = createForecastCache(createDemoForecast({ clock: fixedNow }), { clock: fixedNow });
    const deps = { store, catalog, forecast, now: fixedNow };
    expect((await evaluateAlerts(deps)).upstreamCalls).toBe(1);
    expect((await evaluateAlerts(deps)).upstreamCalls).toBe(0);
  });

  it(`splits more than ${FORECAST_BATCH_SEGMENTS} segments into batches of ${FORECAST_BATCH_SEGMENTS}`, async () => {
    const base = segment('gb-box-hill');
    const many = Array.from({ length: 2 * FORECAST_BATCH_SEGMENTS + 7 }, (_, i) => ({
      ...base,
      id: `generated-${String(i).padStart(3, '0')}`,
      polyline: base.polyline.map((p) => ({ lat: p.lat + i * 0.1, lon: p.lon })),
    }));
    const rider = await proRider(store);
    for (const s of many) await watchSegment(store.db, rider.id, s.id, { thresholdKmh: 5 });
    const forecast = demoAt(fixedNow);
    const summary = await evaluateAlerts({
      store,
      catalog: createSegmentCatalog(many),
      forecast,
      now: fixedNow,
    });
    expect(forecast.calls.map((points) => points.length)).toEqual([100, 100, 7]);
    expect(summary).toMatchObject({ segmentsForecast: 207, forecastCalls: 3, segmentsMissing: 0 });
    expect(summary.alertsRecorded).toBeGreaterThan(0);
  });

  it('skips and counts watched segments the catalog no longer has', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'removed-by-the-operator', { thresholdKmh: 5 });
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const forecast = demoAt(fixedNow);
    const summary = await evaluateAlerts({ store, catalog, forecast, now: fixedNow });
    expect(summary).toMatchObject({ segmentsMissing: 1, segmentsForecast: 1, alertsRecorded: 1 });
    expect(forecast.calls[0]).toHaveLength(1);
  });

  it('skips segments the forecast has no data for', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const empty = countingForecast({ id: 'open-meteo', hourly: async (points) => points.map(() => null) });
    const summary = await evaluateAlerts({ store, catalog, forecast: empty, now: fixedNow });
    expect(summary).toMatchObject({ segmentsWithoutForecast: 1, alertsRecorded: 0, error: null });
  });

  it('reports a forecast failure and records nothing, without throwing', async () => {
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const down = failingForecast(new ForecastError('upstream_error', 'Open-Meteo answered 503'));
    const summary = await evaluateAlerts({ store, catalog, forecast: down, now: fixedNow });
    expect(summary.error).toMatch(/forecast failed: Open-Meteo answered 503/);
    expect(summary).toMatchObject({ alertsRecorded: 0, forecastCalls: 1 });
    expect(await listRecentAlerts(store.db, rider.id)).toEqual([]);
  });

  it('does not alert again when an ongoing window is re-read an hour later from a later start', async () => {
    const id = 'fr-col-du-galibier-valloire';
    const window = await windowOf(id);
    // An hour after the window began, with the peak still ahead: the same window, trimmed.
    const later = (window.start + HOUR_S + 20 * 60) * 1000;
    expect(window.peak.time).toBeGreaterThanOrEqual(window.start + HOUR_S);
    const trimmed = await windowOf(id, later);
    expect(trimmed.start).toBe(window.start + HOUR_S);

    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, id, { thresholdKmh: 5 });
    await evaluateAlerts({ store, catalog, forecast: demoAt(fixedNow), now: fixedNow });
    const again = await evaluateAlerts({ store, catalog, forecast: demoAt(() => later), now: () => later });
    expect(again).toMatchObject({ alertsRecorded: 0, alertsAlreadyKnown: 1 });
    expect(await listRecentAlerts(store.db, rider.id)).toHaveLength(1);
  });

  it('records exactly the watches whose threshold is at most the peak, once (property)', async () => {
    const ids = ['gb-box-hill', 'es-sa-calobra', 'it-passo-del-mortirolo'];
    const peaks = new Map<string, number>();
    for (const id of ids) peaks.set(id, (await windowOf(id)).peak.tailwindKmh);
    const watch = fc.record({
      segment: fc.constantFrom(...ids),
      threshold: fc.integer({ min: 50, max: 600 }).map((tenths) => tenths / 10),
      alertsOn: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(watch, { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        async (riders) => {
          const local = await freshStore();
          try {
            let expected = 0;
            for (const watches of riders) {
              const rider = await proRider(local);
              const seen = new Set<string>();
              for (const w of watches) {
                if (seen.has(w.segment)) continue;
                seen.add(w.segment);
                await watchSegment(local.db, rider.id, w.segment, {
                  thresholdKmh: w.threshold,
                  alertsOn: w.alertsOn,
                });
                if (w.alertsOn && w.threshold <= (peaks.get(w.segment) ?? -1)) expected += 1;
              }
            }
            const forecast = demoAt(fixedNow);
            const deps = { store: local, catalog, forecast, now: fixedNow };
            expect((await evaluateAlerts(deps)).alertsRecorded).toBe(expected);
            expect((await evaluateAlerts(deps)).alertsRecorded).toBe(0);
            expect(forecast.calls.length).toBeLessThanOrEqual(2);
          } finally {
            await local.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('segmentBestWindow', () => {
  it('judges only the hours from the current one to 72 h ahead, as the tools do', () => {
    const hill = segment('gb-box-hill');
    const hour0 = Math.floor(TEST_NOW / 1000 / HOUR_S) * HOUR_S;
    const behind = (bearingOf(hill) + 180) % 360;
    const at = (offset: number, speedKmh: number): WindHour => ({
      time: hour0 + offset * HOUR_S,
      speedKmh,
      directionDeg: behind,
      gustsKmh: null,
      temperatureC: null,
      precipitationMm: null,
      precipitationProbabilityPct: null,
    });
    // Calm everywhere but a gale an hour ago, a gale past the horizon and a breeze at +5 h.
    const hours = Array.from({ length: 80 }, (_, i) => i - 2).map((offset) =>
      at(offset, offset === -1 || offset === FORECAST_HOURS ? 60 : offset === 5 ? 20 : 0),
    );
    const series = { point: forecastPointOf(hill), issuedAt: hour0, stale: false, hours, unusableHours: 0 };
    expect(hoursAhead(series, TEST_NOW).map((h) => h.time)).toEqual(
      Array.from({ length: FORECAST_HOURS }, (_, i) => hour0 + i * HOUR_S),
    );
    const window = segmentBestWindow(hill, series, TEST_NOW);
    expect(window).toMatchObject({ start: hour0 + 5 * HOUR_S, end: hour0 + 6 * HOUR_S, hours: 1 });
    expect(window?.peak.tailwindKmh).toBeGreaterThan(10);
  });
});
