import { describe, expect, it } from 'vitest';
import {
  ALERT_THRESHOLD_DEFAULT_KMH,
  ALERT_THRESHOLD_MAX_KMH,
  ALERT_THRESHOLD_MIN_KMH,
} from '../../src/core/rider-rules.ts';
import {
  findWatch,
  listWatchlist,
  setAlertThreshold,
  unwatchSegment,
  updateWatch,
  watchSegment,
} from '../../src/store/repositories/watchlist.ts';
import { makeRider, type CurrentStore } from './contract-helpers.ts';

export function describeWatchlist(current: CurrentStore): void {
  describe('watchlist', () => {
    it('watches with alerts on at the default threshold and no record', async () => {
      const rider = await makeRider(current());
      const result = await watchSegment(current().db, rider.id, 'seg-1', {}, 1_780_000_000);
      expect(result).toEqual({
        created: true,
        entry: {
          segmentId: 'seg-1',
          recordS: null,
          alertsOn: true,
          thresholdKmh: ALERT_THRESHOLD_DEFAULT_KMH,
          minChancePct: null,
          createdAt: 1_780_000_000,
        },
      });
      expect(await listWatchlist(current().db, rider.id)).toEqual([result.entry]);
    });

    it('upserts: watching again changes only the settings given and keeps created_at', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      await watchSegment(db, rider.id, 'seg-1', { recordS: 312, thresholdKmh: 20 }, 100);
      const again = await watchSegment(db, rider.id, 'seg-1', { alertsOn: false }, 200);
      expect(again).toEqual({
        created: false,
        entry: {
          segmentId: 'seg-1',
          recordS: 312,
          alertsOn: false,
          thresholdKmh: 20,
          minChancePct: null,
          createdAt: 100,
        },
      });
      const cleared = await watchSegment(db, rider.id, 'seg-1', { recordS: null, thresholdKmh: 7.5 }, 300);
      expect(cleared.entry).toEqual({ ...again.entry, recordS: null, thresholdKmh: 7.5 });
      expect(await watchSegment(db, rider.id, 'seg-1')).toEqual(cleared);
      expect(await listWatchlist(db, rider.id)).toHaveLength(1);
    });

    it('lists oldest first and unwatch says whether something was removed', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      await watchSegment(db, rider.id, 'b', {}, 20);
      await watchSegment(db, rider.id, 'a', {}, 30);
      await watchSegment(db, rider.id, 'c', {}, 10);
      expect((await listWatchlist(db, rider.id)).map((entry) => entry.segmentId)).toEqual(['c', 'b', 'a']);
      expect(await unwatchSegment(db, rider.id, 'b')).toBe(true);
      expect(await unwatchSegment(db, rider.id, 'b')).toBe(false);
      expect(await unwatchSegment(db, rider.id, 'never')).toBe(false);
      expect((await listWatchlist(db, rider.id)).map((entry) => entry.segmentId)).toEqual(['c', 'a']);
    });

    it('sets the alert threshold within the bounds, inclusive, and refuses anything else', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      await watchSegment(db, rider.id, 'seg');
      for (const kmh of [ALERT_THRESHOLD_MIN_KMH, ALERT_THRESHOLD_MAX_KMH, 22.5]) {
        expect(await setAlertThreshold(db, rider.id, 'seg', kmh)).toMatchObject({ thresholdKmh: kmh });
      }
      for (const kmh of [
        ALERT_THRESHOLD_MIN_KMH - 0.1,
        ALERT_THRESHOLD_MAX_KMH + 0.1,
        0,
        -10,
        NaN,
        Infinity,
      ]) {
        await expect(setAlertThreshold(db, rider.id, 'seg', kmh)).rejects.toThrow(RangeError);
        await expect(watchSegment(db, rider.id, 'other', { thresholdKmh: kmh })).rejects.toThrow(RangeError);
      }
      expect(await findWatch(db, rider.id, 'seg')).toMatchObject({ thresholdKmh: 22.5 });
      expect(await findWatch(db, rider.id, 'other')).toBeUndefined();
      expect(await setAlertThreshold(db, rider.id, 'not-watched', 20)).toBeUndefined();
    });

    it('refuses record times that are not whole positive seconds within a day', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      for (const recordS of [0, -5, 12.5, 86_401, NaN]) {
        await expect(watchSegment(db, rider.id, 'seg', { recordS })).rejects.toThrow(RangeError);
      }
      expect(await listWatchlist(db, rider.id)).toEqual([]);
      expect(await updateWatch(db, rider.id, 'seg', { recordS: 86_400 })).toBeUndefined();
    });

    it('refuses a watch for a rider that does not exist (foreign key)', async () => {
      await expect(watchSegment(current().db, 'no-such-rider', 'seg')).rejects.toThrow();
    });
  });
}
