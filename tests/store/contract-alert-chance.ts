import { describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../src/alerts/evaluate.ts';
import { windowSpread } from '../../src/core/ensemble-chance.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import { createDemoEnsemble } from '../../src/data/forecast/ensemble-demo.ts';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { forecastPointOf, legsOf } from '../../src/data/segments/segment-geometry.ts';
import { segmentBestWindow } from '../../src/data/segments/segment-window.ts';
import { listRecentAlerts } from '../../src/store/repositories/alerts.ts';
import { findWatch, setAlertThreshold, watchSegment } from '../../src/store/repositories/watchlist.ts';
import { makeRider, type CurrentStore } from './contract-helpers.ts';

/** Saturday 21 November 2026, 10:20 UTC, as the MCP tests. */
const NOW = Date.UTC(2026, 10, 21, 10, 20);
const now = () => NOW;
const catalog = createSegmentCatalog(loadEmbeddedSegments());
const SEGMENT = 'gb-box-hill';

/**
 * A threshold the window's peak reaches whose chance is strictly between 0 and 100 (so one percent
 * above it is a valid rule), and that chance, computed here from the demo members by the core rule.
 */
async function thresholdAndChance(): Promise<{ thresholdKmh: number; chance: number }> {
  const segment = catalog.get(SEGMENT);
  if (!segment) throw new Error('segment in the catalog');
  const [series] = await createDemoForecast({ clock: now }).hourly([forecastPointOf(segment)]);
  const window = series && segmentBestWindow(segment, series, NOW);
  const [members] = await createDemoEnsemble({ clock: now }).hourly([forecastPointOf(segment)]);
  if (!window || !members) throw new Error('a window and members');
  for (let thresholdKmh = 5; thresholdKmh <= window.peak.tailwindKmh; thresholdKmh += 0.5) {
    const spread = windowSpread(legsOf(segment), members.hours, window, thresholdKmh, 'peak');
    const chance = spread ? Math.round(spread.chance * 100) : NaN;
    if (chance > 0 && chance < 100) return { thresholdKmh, chance };
  }
  throw new Error('no threshold with a chance between 0 and 100');
}

/** An alert with a chance rule fires only when the share of ensemble members reaches it, on every engine. */
export function describeAlertChance(current: CurrentStore): void {
  describe('alerts with a chance threshold', () => {
    it('stores the rule on the watch, and null removes it', async () => {
      const { db } = current();
      const rider = await makeRider(current(), { plan: 'pro' });
      await watchSegment(db, rider.id, 'rule', {});
      expect((await findWatch(db, rider.id, 'rule'))?.minChancePct).toBeNull();
      await setAlertThreshold(db, rider.id, 'rule', 12, 70);
      expect(await findWatch(db, rider.id, 'rule')).toMatchObject({ thresholdKmh: 12, minChancePct: 70 });
      await setAlertThreshold(db, rider.id, 'rule', 14);
      expect((await findWatch(db, rider.id, 'rule'))?.minChancePct).toBe(70);
      await setAlertThreshold(db, rider.id, 'rule', 14, null);
      expect((await findWatch(db, rider.id, 'rule'))?.minChancePct).toBeNull();
      await expect(setAlertThreshold(db, rider.id, 'rule', 14, 0)).rejects.toThrow(RangeError);
    });

    it('fires at the chance and not one percent above it, and the alert keeps the chance', async () => {
      const { db } = current();
      const { thresholdKmh: THRESHOLD, chance } = await thresholdAndChance();
      const at = await makeRider(current(), { plan: 'pro' });
      const above = await makeRider(current(), { plan: 'pro' });
      const plain = await makeRider(current(), { plan: 'pro' });
      await watchSegment(db, at.id, SEGMENT, { thresholdKmh: THRESHOLD, minChancePct: chance });
      await watchSegment(db, above.id, SEGMENT, { thresholdKmh: THRESHOLD, minChancePct: chance + 1 });
      await watchSegment(db, plain.id, SEGMENT, { thresholdKmh: THRESHOLD });
      const summary = await evaluateAlerts({
        store: current(),
        catalog,
        forecast: createDemoForecast({ clock: now }),
        ensemble: createDemoEnsemble({ clock: now }),
        now,
      });
      expect(summary.error).toBeNull();
      expect(summary.ensembleCalls).toBe(1);
      const [alert] = await listRecentAlerts(db, at.id);
      expect(alert?.chancePct).toBe(chance);
      expect(await listRecentAlerts(db, above.id)).toEqual([]);
      const [unconditional] = await listRecentAlerts(db, plain.id);
      expect(unconditional?.chancePct).toBeNull();
      expect(summary.alertsBelowChance).toBeGreaterThanOrEqual(1);
    });

    it('records no alert on a watch with a chance rule when the ensemble fails: unknown is not above', async () => {
      const { db } = current();
      const rider = await makeRider(current(), { plan: 'pro' });
      await watchSegment(db, rider.id, SEGMENT, { thresholdKmh: 5, minChancePct: 1 });
      const failing = {
        ...createDemoEnsemble({ clock: now }),
        hourly: () => Promise.reject(new ForecastError('rate_limited', 'rate-limited')),
      };
      const summary = await evaluateAlerts({
        store: current(),
        catalog,
        forecast: createDemoForecast({ clock: now }),
        ensemble: failing,
        now,
      });
      expect(summary.error).toBeNull();
      expect(await listRecentAlerts(db, rider.id)).toEqual([]);
    });
  });
}
