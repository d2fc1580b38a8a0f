/**
 * The free riders' monthly allowance. Counting is one atomic statement on both
 * engines, so concurrent calls can never serve more than the limit.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface QuotaResult {
  /** Whether this call was counted and may be served. */
  readonly allowed: boolean;
  /** Calls counted this month, this one included when allowed. */
  readonly used: number;
  readonly limit: number;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function assertMonth(month: string): void {
  if (!MONTH.test(month)) throw new RangeError(`month must be YYYY-MM, got ${month}`);
}

/**
 * Counts one call against `limit` for the rider's month (see `usageMonth` in
 * `src/core/rider-rules.ts`). A single INSERT … ON CONFLICT DO UPDATE … WHERE
 * calls < limit RETURNING: the row lock (PostgreSQL) or the single writer
 * (SQLite) makes check-and-increment one step, so 50 concurrent calls at 0
 * with limit 20 serve exactly 20. A refused call is not counted.
 */
export async function consumeQuota(
  db: Db,
  riderId: string,
  month: string,
  limit: number,
): Promise<QuotaResult> {
  assertMonth(month);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('limit must be a whole number ≥ 0');
  if (limit === 0) return { allowed: false, used: await currentUsage(db, riderId, month), limit };
  const counted = await db
    .insertInto('usage')
    .values({ rider_id: riderId, month, calls: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(['rider_id', 'month'])
        .doUpdateSet((eb) => ({ calls: eb('usage.calls', '+', 1) }))
        .where('usage.calls', '<', limit),
    )
    .returning('calls')
    .executeTakeFirst();
  if (counted) return { allowed: true, used: counted.calls, limit };
  return { allowed: false, used: await currentUsage(db, riderId, month), limit };
}

/** Calls counted for the rider's month; 0 before the first one. */
export async function currentUsage(db: Db, riderId: string, month: string): Promise<number> {
  assertMonth(month);
  const row = await db
    .selectFrom('usage')
    .select('calls')
    .where('rider_id', '=', riderId)
    .where('month', '=', month)
    .executeTakeFirst();
  return row?.calls ?? 0;
}
