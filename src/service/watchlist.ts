import type { Kysely } from 'kysely';
import { isOwnSegmentId, WATCHLIST_MAX_SEGMENTS } from '../core/rider-rules.ts';
import type { Segment } from '../data/segments/types.ts';
import type { Database } from '../store/schema.ts';
import {
  listWatchlist,
  unwatchSegment,
  watchSegment,
  type WatchEntry,
} from '../store/repositories/watchlist.ts';
import type { SegmentLookup } from '../rider/segment-lookup.ts';

/**
 * Watching and unwatching a segment, with the rules every surface must
 * apply the same way: the segment must be one the rider can see, the
 * watchlist holds at most `WATCHLIST_MAX_SEGMENTS`, and an own segment stays
 * watched while it exists. The MCP tools `watch_segment` / `unwatch_segment`
 * and the settings API's watch button both call these, and each words the
 * refusals for its own reader.
 */

export type WatchOutcome =
  | {
      readonly ok: true;
      readonly entry: WatchEntry;
      readonly segment: Segment;
      /** False when the segment was already watched (its settings kept, a given record replaced). */
      readonly created: boolean;
      readonly watchlistSize: number;
    }
  | { readonly ok: false; readonly reason: 'unknown_segment' }
  | { readonly ok: false; readonly reason: 'watchlist_full'; readonly max: number };

export type UnwatchOutcome =
  | { readonly ok: true; readonly removed: boolean; readonly watchlistSize: number }
  | { readonly ok: false; readonly reason: 'own_segment' };

/** Watches `segmentId` for the rider with alerts on; idempotent; refuses an unknown segment or a full watchlist. */
export async function watchForRider(
  db: Kysely<Database>,
  riderId: string,
  segments: SegmentLookup,
  segmentId: string,
  settings: { readonly recordS?: number },
  nowS: number,
): Promise<WatchOutcome> {
  const segment = await segments.get(segmentId);
  if (!segment) return { ok: false, reason: 'unknown_segment' };
  const current = await listWatchlist(db, riderId);
  const already = current.some((entry) => entry.segmentId === segmentId);
  if (!already && current.length >= WATCHLIST_MAX_SEGMENTS) {
    return { ok: false, reason: 'watchlist_full', max: WATCHLIST_MAX_SEGMENTS };
  }
  const { entry, created } = await watchSegment(
    db,
    riderId,
    segmentId,
    { alertsOn: true, ...(settings.recordS === undefined ? {} : { recordS: settings.recordS }) },
    nowS,
  );
  return { ok: true, entry, segment, created, watchlistSize: current.length + (created ? 1 : 0) };
}

/** Stops watching `segmentId`; idempotent; refuses the rider's own segment, which stays watched while it exists. */
export async function unwatchForRider(
  db: Kysely<Database>,
  riderId: string,
  segments: SegmentLookup,
  segmentId: string,
): Promise<UnwatchOutcome> {
  if (isOwnSegmentId(segmentId) && (await segments.get(segmentId)))
    return { ok: false, reason: 'own_segment' };
  const removed = await unwatchSegment(db, riderId, segmentId);
  return { ok: true, removed, watchlistSize: (await listWatchlist(db, riderId)).length };
}
