import { describe, expect, it } from 'vitest';
import { FREE_MONTHLY_CALLS } from '../../src/core/rider-rules.ts';
import { consumeQuota, currentUsage } from '../../src/store/repositories/usage.ts';
import { makeRider, type CurrentStore } from './contract-helpers.ts';

export function describeUsage(current: CurrentStore): void {
  describe('usage quota', () => {
    it('counts calls up to the limit, then refuses without counting', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      expect(await currentUsage(db, rider.id, '2026-03')).toBe(0);
      for (let call = 1; call <= 3; call++) {
        expect(await consumeQuota(db, rider.id, '2026-03', 3)).toEqual({
          allowed: true,
          used: call,
          limit: 3,
        });
      }
      for (let call = 0; call < 2; call++) {
        expect(await consumeQuota(db, rider.id, '2026-03', 3)).toEqual({ allowed: false, used: 3, limit: 3 });
      }
      expect(await currentUsage(db, rider.id, '2026-03')).toBe(3);
      // A higher limit (say after a plan change) serves again from where the count stands.
      expect(await consumeQuota(db, rider.id, '2026-03', 4)).toEqual({ allowed: true, used: 4, limit: 4 });
    });

    it(`serves exactly ${FREE_MONTHLY_CALLS} of 50 concurrent calls from one free rider`, async () => {
      const { db } = current();
      const rider = await makeRider(current());
      const results = await Promise.all(
        Array.from({ length: 50 }, () => consumeQuota(db, rider.id, '2026-04', FREE_MONTHLY_CALLS)),
      );
      const allowed = results.filter((result) => result.allowed);
      expect(allowed).toHaveLength(FREE_MONTHLY_CALLS);
      // Each allowed call saw a distinct count: no two calls shared a slot.
      expect(allowed.map((result) => result.used).sort((x, y) => x - y)).toEqual(
        Array.from({ length: FREE_MONTHLY_CALLS }, (_, i) => i + 1),
      );
      for (const refused of results.filter((result) => !result.allowed)) {
        expect(refused.used).toBe(FREE_MONTHLY_CALLS);
      }
      expect(await currentUsage(db, rider.id, '2026-04')).toBe(FREE_MONTHLY_CALLS);
    });

    it('starts a new month at zero and leaves the old month as it was', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      for (let call = 0; call < 2; call++) await consumeQuota(db, rider.id, '2026-12', 2);
      expect((await consumeQuota(db, rider.id, '2026-12', 2)).allowed).toBe(false);
      expect(await currentUsage(db, rider.id, '2027-01')).toBe(0);
      expect(await consumeQuota(db, rider.id, '2027-01', 2)).toEqual({ allowed: true, used: 1, limit: 2 });
      expect(await currentUsage(db, rider.id, '2026-12')).toBe(2);
    });

    it('refuses everything at limit 0 and rejects a malformed month or limit', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      expect(await consumeQuota(db, rider.id, '2026-06', 0)).toEqual({ allowed: false, used: 0, limit: 0 });
      for (const month of ['2026-13', '2026-6', '202606', `2026-06'; --`]) {
        await expect(consumeQuota(db, rider.id, month, 20)).rejects.toThrow(RangeError);
      }
      await expect(consumeQuota(db, rider.id, '2026-06', 2.5)).rejects.toThrow(RangeError);
      await expect(consumeQuota(db, rider.id, '2026-06', -1)).rejects.toThrow(RangeError);
    });
  });
}
