/**
 * Where the alert evaluation left off when a run ran out of time, so the next
 * run (the next cron invocation, possibly on another instance) carries on
 * from there instead of starting over and never reaching the last watches.
 * In Redis when `REDIS_URL` is set, else in the store (`job_state`): either
 * way every instance sees it.
 */
import { z } from 'zod';
import type { AlertWatchCursor } from '../store/repositories/alert-watches.ts';
import type { SharedKeyValue } from '../store/shared-state/key-value.ts';

export interface AlertCursorStore {
  /** The cursor to start from; null to start from the first watch. */
  load(): Promise<AlertWatchCursor | null>;
  /** Null when a run reached the last watch: the next one starts from the first. */
  save(cursor: AlertWatchCursor | null): Promise<void>;
}

export const AlertWatchCursorSchema = z.object({ riderId: z.string(), segmentId: z.string() });

/**
 * How long a saved cursor stays usable: a few 15-minute runs. One older than
 * that is from a run long gone (the schedule stopped meanwhile), and its
 * watches deserve a fresh start rather than a resumption.
 */
export const ALERT_CURSOR_TTL_MS = 2 * 3_600_000;

/**
 * The cursor under `key` in a shared key-value store (Redis). A value that
 * is missing, expired or unreadable reads as "start from the first watch":
 * re-evaluating a watch records nothing twice (the alert table's unique key),
 * so starting over is always safe, only slower.
 */
export function sharedCursorStore(
  store: Pick<SharedKeyValue, 'getMany' | 'set'>,
  key: string,
): AlertCursorStore {
  return {
    async load() {
      const [text] = await store.getMany([key]);
      if (!text) return null;
      try {
        const parsed = AlertWatchCursorSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    async save(cursor) {
      await store.set(key, cursor === null ? '' : JSON.stringify(cursor), ALERT_CURSOR_TTL_MS);
    },
  };
}
