/**
 * The repository contract every engine must pass: the SQLite and PostgreSQL
 * test files call {@link describeStoreContract} with their own way to open a
 * store, so both engines are held to the same behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { listRecentAlerts, recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { findRiderById } from '../../src/store/repositories/riders.ts';
import { consumeQuota, currentUsage } from '../../src/store/repositories/usage.ts';
import { listWatchlist, watchSegment } from '../../src/store/repositories/watchlist.ts';
import { describeAlerts } from './contract-alerts.ts';
import { describeAlertChance } from './contract-alert-chance.ts';
import { ALL_MIGRATIONS, makeRider } from './contract-helpers.ts';
import { describeJobState } from './contract-job-state.ts';
import { describeDiscovered } from './contract-discovered.ts';
import { describeDiscoveredBuild } from './contract-discovered-build.ts';
import { describeIsolationAndInjection } from './contract-isolation.ts';
import { describeRiders } from './contract-riders.ts';
import { describeUsage } from './contract-usage.ts';
import { describeWatchlist } from './contract-watchlist.ts';

/** `open` must return a new store on the same database each time it is called. */
export function describeStoreContract(name: string, open: () => Store): void {
  describe(`${name} store contract`, () => {
    let store: Store | undefined;
    const current = (): Store => {
      if (!store) throw new Error('store not open');
      return store;
    };

    beforeAll(async () => {
      store = open();
      const report = await migrateToLatest(store, APP_MIGRATIONS);
      expect(report.applied).toEqual(ALL_MIGRATIONS);
    });
    afterAll(async () => {
      await store?.close();
    });

    it('reports the engine and applies nothing on a second migration', async () => {
      expect(current().engine).toBe(name);
      expect((await migrateToLatest(current(), APP_MIGRATIONS)).applied).toEqual([]);
    });

    describeRiders(current);
    describeWatchlist(current);
    describeAlerts(current);
    describeAlertChance(current);
    describeUsage(current);
    describeIsolationAndInjection(current);
    describeJobState(current);
    describeDiscovered(current);
    describeDiscoveredBuild(current);

    describe('durability', () => {
      it('keeps riders, watches, alerts and usage across closing and reopening the store', async () => {
        const rider = await makeRider(current(), { plan: 'pro', trialEndsAt: 1_790_000_000 });
        const { entry } = await watchSegment(current().db, rider.id, 'kept', { recordS: 420 });
        const alert = await recordAlertOnce(current().db, rider.id, {
          segmentId: 'kept',
          windowStart: 3600,
          windowEnd: 7200,
          peakTailwindKmh: 18.5,
        });
        await consumeQuota(current().db, rider.id, '2026-07', 20);

        await current().close();
        store = open();
        expect((await migrateToLatest(current(), APP_MIGRATIONS)).applied).toEqual([]);

        expect(await findRiderById(current().db, rider.id)).toEqual(rider);
        expect(await listWatchlist(current().db, rider.id)).toEqual([entry]);
        expect(await listRecentAlerts(current().db, rider.id)).toEqual([alert]);
        expect(await currentUsage(current().db, rider.id, '2026-07')).toBe(1);
      });
    });
  });
}
