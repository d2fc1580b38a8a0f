import type { Kysely } from 'kysely';
import { isOwnSegmentId, WATCHLIST_MAX_SEGMENTS } from '../core/rider-rules.ts';
import type { Segment } from '../data/segments/types.ts';
import type { Database } from '../store/schema.ts';
import { listRecentAlerts, type AlertRecord } from '../store/repositories/alerts.ts';
import {
  findWatch,
  listWatchlist,
  setAlertThreshold,
  unwatchSegment,
  watchSegment,
  type WatchEntry,
} from '../store/repositories/watchlist.ts';
import type { SegmentLookup } from '../rider/segment-lookup.ts';

/**
 * The rider's watchlist, read and changed with the rules every surface must
 * apply the same way: the segment must be one the rider can see, the
 * watchlist holds at most `WATCHLIST_MAX_SEGMENTS`, an own segment stays
 * watched while it exists, and a threshold is set only on a watched segment.
 * The MCP tools and the settings page both call these, and each words the
 * answers and refusals for its own reader.
 */

export type { AlertRecord, WatchEntry };

/** The watchlist as a reader shows it: the watches, the latest alerts, and the segments both name. */
export interface WatchlistView {
  /** Oldest watch first. */
  readonly entries: readonly WatchEntry[];
  /** Newest first, at most the number asked for. */
  readonly alerts: readonly AlertRecord[];
  /** The segments the watches and alerts name, as this rider may see them (a removed one is missing). */
  readonly segments: ReadonlyMap<string, Segment>;
}

/** The rider's watchlist with its `recentAlerts` latest alerts and the segments they name. */
export async function readWatchlist(
  db: Kysely<Database>,
  riderId: string,
  segments: SegmentLookup,
  recentAlerts: number,
): Promise<WatchlistView> {
  const [entries, alerts] = await Promise.all([
    listWatchlist(db, riderId),
    listRecentAlerts(db, riderId, { limit: recentAlerts }),
  ]);
  const named = await segments.getMany([...new Set([...entries, ...alerts].map((entry) => entry.segmentId))]);
  return { entries, alerts, segments: named };
}

/** The segments the rider watches, oldest watch first, without their alerts (where they ride: the rider's zone). */
export async function watchedSegments(
  db: Kysely<Database>,
  riderId: string,
  segments: SegmentLookup,
): Promise<{ readonly entries: readonly WatchEntry[]; readonly segments: ReadonlyMap<string, Segment> }> {
  const entries = await listWatchlist(db, riderId);
  const named = entries.length === 0 ? new Map() : await segments.getMany(entries.map((e) => e.segmentId));
  return { entries, segments: named };
}

export type ThresholdOutcome =
  | { readonly ok: true; readonly before: WatchEntry; readonly after: WatchEntry }
  | { readonly ok: false; readonly reason: 'not_watched' };

/** Sets the alert threshold (and the ensemble share that must agree) of a watched segment. */
export async function setThresholdForRider(
  db: Kysely<Database>,
  riderId: string,
  segmentId: string,
  thresholdKmh: number,
  minChancePct: number | null | undefined,
): Promise<ThresholdOutcome> {
  const before = await findWatch(db, riderId, segmentId);
  if (!before) return { ok: false, reason: 'not_watched' };
  const after = await setAlertThreshold(db, riderId, segmentId, thresholdKmh, minChancePct);
  // Unwatched by a concurrent call between the two statements.
  if (!after) return { ok: false, reason: 'not_watched' };
  return { ok: true, before, after };
}

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
