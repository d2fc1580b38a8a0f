/**
 * The free rider's monthly allowance of metered MCP calls, counted in the
 * UTC calendar month: a cheap read to turn an exhausted rider away before
 * any work, and the atomic count that decides, taken once the answer is
 * built (see `src/mcp/tools/rider/metered.ts` for why in that order).
 */
import type { Kysely } from 'kysely';
import { usageMonth } from '../core/rider-rules.ts';
import { consumeQuota, currentUsage, type QuotaResult } from '../store/repositories/usage.ts';
import type { Database } from '../store/schema.ts';

/** Metered calls the rider has made in the month of `nowS`. */
export function callsUsed(db: Kysely<Database>, riderId: string, nowS: number): Promise<number> {
  return currentUsage(db, riderId, usageMonth(nowS));
}

/** Counts one call in the month of `nowS` if fewer than `limit` were counted, atomically. */
export function countCall(
  db: Kysely<Database>,
  riderId: string,
  nowS: number,
  limit: number,
): Promise<QuotaResult> {
  return consumeQuota(db, riderId, usageMonth(nowS), limit);
}
