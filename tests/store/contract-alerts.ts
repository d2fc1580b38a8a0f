import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS } from '../../src/core/rider-rules.ts';
import {
  LAST_ERROR_MAX_CHARS,
  listPendingDeliveries,
  listRecentAlerts,
  markAlertAttemptFailed,
  markAlertDelivered,
  recordAlertOnce,
} from '../../src/store/repositories/alerts.ts';
import { setRiderWebhook } from '../../src/store/repositories/riders.ts';
import { makeRider, type CurrentStore } from './contract-helpers.ts';

const window = {
  segmentId: 'seg-1',
  windowStart: 1_780_000_000,
  windowEnd: 1_780_010_800,
  peakTailwindKmh: 24.6,
};

export function describeAlerts(current: CurrentStore): void {
  describe('alerts', () => {
    it('records an alert once per rider, segment and window start', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      const first = await recordAlertOnce(db, rider.id, window, 1_779_990_000);
      expect(first).toEqual({
        ...window,
        id: expect.any(String),
        riderId: rider.id,
        createdAt: 1_779_990_000,
        deliveredAt: null,
        attempts: 0,
        lastError: null,
        chancePct: null,
      });
      // Same window again, even with a different end or peak: not new.
      expect(await recordAlertOnce(db, rider.id, window)).toBeNull();
      expect(
        await recordAlertOnce(db, rider.id, { ...window, windowEnd: window.windowEnd + 3600 }),
      ).toBeNull();
      // Another window start or another segment is a new alert.
      expect(
        await recordAlertOnce(db, rider.id, { ...window, windowStart: window.windowStart + 3600 }),
      ).not.toBeNull();
      expect(await recordAlertOnce(db, rider.id, { ...window, segmentId: 'seg-2' })).not.toBeNull();
      expect(await listRecentAlerts(db, rider.id)).toHaveLength(3);
    });

    it('records exactly one of many concurrent identical alerts', async () => {
      const rider = await makeRider(current());
      const results = await Promise.all(
        Array.from({ length: 10 }, () => recordAlertOnce(current().db, rider.id, window)),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });

    it('refuses a window whose end is not after its start', async () => {
      const rider = await makeRider(current());
      const bad = { ...window, windowEnd: window.windowStart };
      await expect(recordAlertOnce(current().db, rider.id, bad)).rejects.toThrow(RangeError);
      await expect(
        recordAlertOnce(current().db, rider.id, { ...window, peakTailwindKmh: NaN }),
      ).rejects.toThrow(RangeError);
    });

    it('lists a rider’s recent alerts newest first, with limit and since', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      for (const [offset, createdAt] of [
        [0, 100],
        [3600, 300],
        [7200, 200],
      ] as const) {
        await recordAlertOnce(
          db,
          rider.id,
          { ...window, windowStart: window.windowStart + offset },
          createdAt,
        );
      }
      const created = async (options = {}) =>
        (await listRecentAlerts(db, rider.id, options)).map((alert) => alert.createdAt);
      expect(await created()).toEqual([300, 200, 100]);
      expect(await created({ limit: 2 })).toEqual([300, 200]);
      expect(await created({ since: 200 })).toEqual([300, 200]);
    });

    it('queues undelivered alerts of riders with a webhook until delivered or out of attempts', async () => {
      const { db } = current();
      const hooked = await makeRider(current());
      const silent = await makeRider(current());
      const webhook = { url: 'https://example.com/hook', secret: 'shh' };
      await setRiderWebhook(db, hooked.id, webhook);
      const alert = await recordAlertOnce(db, hooked.id, window);
      const other = await recordAlertOnce(db, hooked.id, { ...window, segmentId: 'seg-2' });
      await recordAlertOnce(db, silent.id, window);
      if (!alert || !other) throw new Error('alerts not recorded');

      const mine = async () =>
        (await listPendingDeliveries(db, { limit: 10_000 })).filter((p) => p.alert.riderId === hooked.id);
      expect((await mine()).map((p) => p.alert.id).sort()).toEqual([alert.id, other.id].sort());
      expect((await mine())[0]?.webhook).toEqual(webhook);
      const pending = await listPendingDeliveries(db, { limit: 10_000 });
      expect(pending.some((p) => p.alert.riderId === silent.id)).toBe(false);

      expect(await markAlertAttemptFailed(db, alert.id, 'x'.repeat(2000))).toBe(true);
      expect(await markAlertDelivered(db, alert.id, 1_780_000_100)).toBe(true);
      expect(await markAlertDelivered(db, alert.id)).toBe(false);
      expect(await markAlertAttemptFailed(db, alert.id, 'late')).toBe(false);
      const [delivered] = (await listRecentAlerts(db, hooked.id)).filter((a) => a.id === alert.id);
      expect(delivered).toMatchObject({ deliveredAt: 1_780_000_100, attempts: 2, lastError: null });

      for (let attempt = 0; attempt < WEBHOOK_MAX_ATTEMPTS; attempt++) {
        expect((await mine()).map((p) => p.alert.id)).toEqual([other.id]);
        await markAlertAttemptFailed(db, other.id, `HTTP 500 '${attempt}'`);
      }
      expect(await mine()).toEqual([]);
      const [failed] = (await listRecentAlerts(db, hooked.id)).filter((a) => a.id === other.id);
      expect(failed).toMatchObject({ deliveredAt: null, attempts: WEBHOOK_MAX_ATTEMPTS });
      expect(failed?.lastError).toBe(`HTTP 500 '${WEBHOOK_MAX_ATTEMPTS - 1}'`);
      expect(await markAlertAttemptFailed(db, 'no-such-alert', 'x')).toBe(false);
    });

    it('keeps at most LAST_ERROR_MAX_CHARS of a delivery error', async () => {
      const rider = await makeRider(current());
      const alert = await recordAlertOnce(current().db, rider.id, window);
      if (!alert) throw new Error('alert not recorded');
      await markAlertAttemptFailed(current().db, alert.id, 'é'.repeat(LAST_ERROR_MAX_CHARS + 1));
      const [stored] = await listRecentAlerts(current().db, rider.id);
      expect(stored?.lastError).toBe('é'.repeat(LAST_ERROR_MAX_CHARS));
    });
  });
}
