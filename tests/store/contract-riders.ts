import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DuplicateRiderError,
  createRider,
  findRiderByEmail,
  findRiderById,
  setRiderPlan,
  setRiderTrial,
  setRiderWebhook,
} from '../../src/store/repositories/riders.ts';
import { makeRider, type CurrentStore } from './contract-helpers.ts';

export function describeRiders(current: CurrentStore): void {
  describe('riders', () => {
    it('creates a free rider without trial or webhook and finds it by id and email', async () => {
      const { db } = current();
      const email = `new-${randomUUID()}@example.com`;
      const rider = await createRider(db, { email }, 1_780_000_000);
      expect(rider).toEqual({
        id: expect.any(String),
        email,
        createdAt: 1_780_000_000,
        plan: 'free',
        trialEndsAt: null,
        webhook: null,
        paid: null,
      });
      expect(typeof rider.createdAt).toBe('number');
      expect(await findRiderById(db, rider.id)).toEqual(rider);
      expect(await findRiderByEmail(db, email)).toEqual(rider);
      expect(await findRiderById(db, randomUUID())).toBeUndefined();
      expect(await findRiderByEmail(db, `missing-${email}`)).toBeUndefined();
    });

    it('keeps a given id, so the rider can share the auth user id', async () => {
      const id = `auth-user-${randomUUID()}`;
      const rider = await makeRider(current(), { id, plan: 'pro', trialEndsAt: 1_790_000_000 });
      expect(rider.id).toBe(id);
      expect(await findRiderById(current().db, id)).toMatchObject({
        plan: 'pro',
        trialEndsAt: 1_790_000_000,
      });
    });

    it('keeps times past 2038 exactly (64-bit seconds)', async () => {
      const year2100 = 4_102_444_800;
      const rider = await makeRider(current(), { trialEndsAt: year2100 + 1 });
      const later = await createRider(current().db, { email: `late-${rider.email}` }, year2100);
      expect((await findRiderById(current().db, rider.id))?.trialEndsAt).toBe(year2100 + 1);
      expect((await findRiderById(current().db, later.id))?.createdAt).toBe(year2100);
    });

    it('refuses a second rider with the same email or id', async () => {
      const first = await makeRider(current());
      await expect(createRider(current().db, { email: first.email })).rejects.toBeInstanceOf(
        DuplicateRiderError,
      );
      await expect(
        createRider(current().db, { id: first.id, email: `other-${randomUUID()}@example.com` }),
      ).rejects.toBeInstanceOf(DuplicateRiderError);
    });

    it('sets plan, trial and webhook, and reports unknown riders', async () => {
      const { db } = current();
      const rider = await makeRider(current());
      expect(await setRiderPlan(db, rider.id, 'pro')).toBe(true);
      expect(await setRiderTrial(db, rider.id, 1_800_000_000)).toBe(true);
      const webhook = { url: 'https://example.com/hook?a=1&b=2', secret: `s3cr'et"` };
      expect(await setRiderWebhook(db, rider.id, webhook)).toBe(true);
      expect(await findRiderById(db, rider.id)).toEqual({
        ...rider,
        plan: 'pro',
        trialEndsAt: 1_800_000_000,
        webhook,
      });

      expect(await setRiderTrial(db, rider.id, null)).toBe(true);
      expect(await setRiderWebhook(db, rider.id, null)).toBe(true);
      expect(await setRiderPlan(db, rider.id, 'free')).toBe(true);
      expect(await findRiderById(db, rider.id)).toEqual(rider);

      const nobody = randomUUID();
      expect(await setRiderPlan(db, nobody, 'pro')).toBe(false);
      expect(await setRiderTrial(db, nobody, 1)).toBe(false);
      expect(await setRiderWebhook(db, nobody, webhook)).toBe(false);
    });

    it('rejects an unknown plan and a fractional trial end before touching the database', async () => {
      const rider = await makeRider(current());
      // @ts-expect-error: a caller bypassing the types still cannot store an unknown plan.
      await expect(setRiderPlan(current().db, rider.id, 'platinum')).rejects.toThrow(RangeError);
      await expect(setRiderTrial(current().db, rider.id, 1.5)).rejects.toThrow(RangeError);
      expect(await findRiderById(current().db, rider.id)).toEqual(rider);
    });
  });
}
