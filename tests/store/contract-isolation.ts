import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRiderByEmail, findRiderById, setRiderWebhook } from '../../src/store/repositories/riders.ts';
import {
  listRecentAlerts,
  markAlertAttemptFailed,
  recordAlertOnce,
} from '../../src/store/repositories/alerts.ts';
import { consumeQuota, currentUsage } from '../../src/store/repositories/usage.ts';
import {
  findWatch,
  listWatchlist,
  setAlertThreshold,
  unwatchSegment,
  updateWatch,
  watchSegment,
} from '../../src/store/repositories/watchlist.ts';
import { hostileString, makeRider, type CurrentStore } from './contract-helpers.ts';

export function describeIsolationAndInjection(current: CurrentStore): void {
  describe('rider isolation', () => {
    it('rider B cannot see, unwatch or change rider A’s watches, alerts or usage', async () => {
      const { db } = current();
      const a = await makeRider(current());
      const b = await makeRider(current());
      const watched = await watchSegment(db, a.id, 'shared-seg', { recordS: 600, thresholdKmh: 25 });
      const window = { segmentId: 'shared-seg', windowStart: 1000, windowEnd: 4600, peakTailwindKmh: 30 };
      await recordAlertOnce(db, a.id, window);
      await consumeQuota(db, a.id, '2026-05', 20);

      expect(await listWatchlist(db, b.id)).toEqual([]);
      expect(await findWatch(db, b.id, 'shared-seg')).toBeUndefined();
      expect(await unwatchSegment(db, b.id, 'shared-seg')).toBe(false);
      expect(await updateWatch(db, b.id, 'shared-seg', { alertsOn: false })).toBeUndefined();
      expect(await setAlertThreshold(db, b.id, 'shared-seg', 5)).toBeUndefined();
      expect(await listRecentAlerts(db, b.id)).toEqual([]);
      expect(await currentUsage(db, b.id, '2026-05')).toBe(0);

      // B watching and alerting on the same segment gets B's own rows.
      expect((await watchSegment(db, b.id, 'shared-seg', { thresholdKmh: 5 })).created).toBe(true);
      expect(await recordAlertOnce(db, b.id, window)).not.toBeNull();
      await unwatchSegment(db, b.id, 'shared-seg');

      expect(await listWatchlist(db, a.id)).toEqual([watched.entry]);
      expect(await listRecentAlerts(db, a.id)).toHaveLength(1);
      expect(await currentUsage(db, a.id, '2026-05')).toBe(1);
    });

    it('whatever segment ids B uses, A’s watchlist never changes (property)', async () => {
      const { db } = current();
      const a = await makeRider(current());
      const b = await makeRider(current());
      await watchSegment(db, a.id, 'a-1', { recordS: 100 });
      await watchSegment(db, a.id, `a'2`, { alertsOn: false });
      const before = await listWatchlist(db, a.id);
      const segment = fc.oneof(fc.constantFrom('a-1', `a'2`), hostileString);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.nat(3), segment), { maxLength: 6 }), async (operations) => {
          for (const [kind, segmentId] of operations) {
            if (kind === 0) await watchSegment(db, b.id, segmentId, { thresholdKmh: 50 });
            if (kind === 1) await unwatchSegment(db, b.id, segmentId);
            if (kind === 2) await updateWatch(db, b.id, segmentId, { recordS: 1, alertsOn: true });
            if (kind === 3) await setAlertThreshold(db, b.id, segmentId, 6);
          }
          expect(await listWatchlist(db, a.id)).toEqual(before);
        }),
        { numRuns: 25 },
      );
    });
  });

  describe('injection attempts are data', () => {
    it('stores and returns a hostile email verbatim, and the table survives', async () => {
      const { db } = current();
      const email = `x'); DROP TABLE rider; --@example.com`;
      const rider = await makeRider(current(), { email });
      expect(rider.email).toBe(email);
      expect(await findRiderByEmail(db, email)).toEqual(rider);
      expect(await findRiderById(db, rider.id)).toEqual(rider);
      const webhook = { url: `https://example.com/h?q=';--`, secret: `"; DROP TABLE alert; --` };
      await setRiderWebhook(db, rider.id, webhook);
      expect((await findRiderById(db, rider.id))?.webhook).toEqual(webhook);
    });

    it('stores and returns hostile segment ids and errors verbatim (property)', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      await fc.assert(
        fc.asyncProperty(hostileString, async (segmentId) => {
          const { entry } = await watchSegment(db, rider.id, segmentId);
          expect(entry.segmentId).toBe(segmentId);
          expect((await findWatch(db, rider.id, segmentId))?.segmentId).toBe(segmentId);
          const alert = await recordAlertOnce(db, rider.id, {
            segmentId,
            windowStart: 0,
            windowEnd: 3600,
            peakTailwindKmh: 12.3,
          });
          if (alert) {
            expect(alert.segmentId).toBe(segmentId);
            await markAlertAttemptFailed(db, alert.id, segmentId);
            const stored = await listRecentAlerts(db, rider.id, { limit: 100 });
            expect(stored.find((row) => row.id === alert.id)?.lastError).toBe(segmentId);
          }
          expect(await unwatchSegment(db, rider.id, segmentId)).toBe(true);
        }),
        { numRuns: 40 },
      );
      expect(await listWatchlist(db, rider.id)).toEqual([]);
    });
  });
}
