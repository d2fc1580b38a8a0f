import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../src/alerts/evaluate.ts';
import { ALERT_THRESHOLD_MIN_KMH } from '../../src/core/rider-rules.ts';
import { HOUR_S } from '../../src/core/tailwind-window.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import type { Segment } from '../../src/data/segments/types.ts';
import { listRecentAlerts } from '../../src/store/repositories/alerts.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { CIVIL_TWILIGHT_DEG, lowestSunDeg, TWILIGHT_TOLERANCE_DEG } from '../support/solar-altitude.ts';
import { demoAt, freshStore, proRider, removeTestStores } from './helpers.ts';

afterAll(removeTestStores);

/** A 3 km straight road at `start` heading `bearingDeg`, as the catalog would hold it. */
function road(id: string, start: { lat: number; lon: number }, bearingDeg: number): Segment {
  const rad = (bearingDeg * Math.PI) / 180;
  const dLat = (3 / 111) * Math.cos(rad);
  const dLon = ((3 / 111) * Math.sin(rad)) / Math.max(0.05, Math.cos((start.lat * Math.PI) / 180));
  return {
    id,
    name: `Road ${id}`,
    aliases: [],
    countryCode: 'ZZ',
    polyline: [start, { lat: Math.max(-89.9, Math.min(89.9, start.lat + dLat)), lon: start.lon + dLon }],
    distanceM: 3000,
    averageGradePct: 0,
    elevationGainM: 0,
    popularityRank: 1,
    source: 'test',
    license: 'CC0-1.0',
  };
}

describe('the alert job alerts only on daylight windows', () => {
  it('no alerted window holds an hour outside civil twilight, anywhere, any day (property)', async () => {
    const store = await freshStore();
    let alerts = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.double({ min: -85, max: 85, noNaN: true }),
          fc.double({ min: -180, max: 180, noNaN: true }),
          fc.integer({ min: 0, max: 359 }),
          fc.integer({
            min: Date.UTC(2026, 0, 1) / 1000 / HOUR_S,
            max: Date.UTC(2027, 11, 31) / 1000 / HOUR_S,
          }),
          async (lat, lon, bearing, hour) => {
            const nowMs = hour * HOUR_S * 1000 + 5 * 60 * 1000;
            const segment = road(`zz-road-${hour}-${bearing}`, { lat, lon }, bearing);
            const rider = await proRider(store);
            await watchSegment(store.db, rider.id, segment.id, {
              thresholdKmh: ALERT_THRESHOLD_MIN_KMH,
              alertsOn: true,
            });
            const catalog = createSegmentCatalog([segment]);
            const now = () => nowMs;
            await evaluateAlerts({ store, catalog, forecast: demoAt(now), now });
            const recorded = await listRecentAlerts(store.db, rider.id);
            const mid = {
              lat: (lat + (segment.polyline[1]?.lat ?? lat)) / 2,
              lon: (lon + (segment.polyline[1]?.lon ?? lon)) / 2,
            };
            for (const alert of recorded) {
              alerts += 1;
              expect(lowestSunDeg(mid, alert.windowStart, alert.windowEnd)).toBeGreaterThan(
                CIVIL_TWILIGHT_DEG - TWILIGHT_TOLERANCE_DEG,
              );
            }
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await store.close();
    }
    // Not vacuous: at 5 km/h most places get a daylight tailwind within three days.
    expect(alerts).toBeGreaterThan(20);
  });
});
