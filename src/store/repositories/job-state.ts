/**
 * Expiring values in the store, for deployments without Redis: the same
 * shapes as `src/store/shared-state` (a key-value with a time to live, a lock
 * one run holds at a time), on a `job_state` row per key, identical on
 * SQLite and PostgreSQL. Times are whole seconds, like every stored time,
 * rounded up so a value never expires early.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { nowSeconds } from '../clock.ts';
import type { Database } from '../schema.ts';
import type { SharedKeyValue } from '../shared-state/key-value.ts';

type Db = Kysely<Database>;

const expiry = (ttlMs: number, now: number): number => now + Math.max(1, Math.ceil(ttlMs / 1000));

/** Strings under `prefix` in the store; an expired value reads as missing. */
export function createStoreKeyValue(
  db: Db,
  prefix: string,
  clock: () => number = nowSeconds,
): SharedKeyValue {
  return {
    async getMany(keys) {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('job_state')
        .select(['key', 'value'])
        .where(
          'key',
          'in',
          keys.map((key) => prefix + key),
        )
        .where('expires_at', '>', clock())
        .execute();
      const found = new Map(rows.map((row) => [row.key, row.value]));
      return keys.map((key) => found.get(prefix + key) ?? null);
    },
    async set(key, value, ttlMs) {
      const now = clock();
      await db
        .insertInto('job_state')
        .values({ key: prefix + key, value, expires_at: expiry(ttlMs, now) })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet((eb) => ({
            value: eb.ref('excluded.value'),
            expires_at: eb.ref('excluded.expires_at'),
          })),
        )
        .execute();
    },
  };
}

/**
 * A lock one run at a time holds, like `createRedisLock`: one statement
 * takes the row when it is free or expired (an upsert whose update only
 * applies past the expiry), so two runs racing cannot both win. `acquire`
 * resolves to the release function, or null when another run holds it; the
 * release deletes the row only while it still holds our token.
 */
export function createStoreLock(db: Db, key: string, ttlMs: number, clock: () => number = nowSeconds) {
  return {
    async acquire(): Promise<(() => Promise<void>) | null> {
      const token = randomUUID();
      const now = clock();
      const row = await db
        .insertInto('job_state')
        .values({ key, value: token, expires_at: expiry(ttlMs, now) })
        .onConflict((conflict) =>
          conflict
            .column('key')
            .doUpdateSet((eb) => ({
              value: eb.ref('excluded.value'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where('job_state.expires_at', '<=', now),
        )
        .returning('value')
        .executeTakeFirst();
      if (row?.value !== token) return null;
      return async () => {
        await db.deleteFrom('job_state').where('key', '=', key).where('value', '=', token).execute();
      };
    },
  };
}
