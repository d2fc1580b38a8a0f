import type { Segment } from '../../../data/segments/types.ts';
import { isOwnSegment } from '../../../data/segments/owned-segment.ts';
import type { WatchEntry } from '../../../service/watchlist.ts';
import { segmentFacts } from '../../report/segment-report.ts';
import { isoTime } from '../../../core/time.ts';
import type { CatalogStatusSchema, RiderSegmentFacts, WatchEntryOut, WatchOut } from '../../schemas/rider.ts';
import type { z } from 'zod';

/** Where a watched segment was found: the catalog, the rider's own segments, or nowhere any more. */
export function catalogStatusOf(segment: Segment | undefined): z.infer<typeof CatalogStatusSchema> {
  if (!segment) return 'missing_from_catalog';
  return isOwnSegment(segment) ? 'own_segment' : 'in_catalog';
}

/** Segment facts at the rider address: an own segment is not ranked in the catalog, so its rank is null. */
export function riderSegmentFacts(segment: Segment): RiderSegmentFacts {
  const facts = segmentFacts(segment);
  return isOwnSegment(segment) ? { ...facts, popularity_rank: null } : facts;
}

/**
 * A stored watch in answer shape, with its segment as the rider's lookup
 * found it (`session.segments`). The catalog can lose a segment a rider
 * watches (an operator re-imports it); the entry then says so instead of
 * failing the whole answer, and unwatch_segment still removes it.
 */
export function watchEntryOut(
  entry: WatchEntry,
  segment: Segment | undefined,
  closedShape?: 'loop' | 'out_and_back',
): WatchEntryOut {
  return {
    segment_id: entry.segmentId,
    catalog_status: catalogStatusOf(segment),
    segment: segment ? riderSegmentFacts(segment) : null,
    record_s: entry.recordS,
    alerts_on: entry.alertsOn,
    threshold_kmh: entry.thresholdKmh,
    min_chance_pct: entry.minChancePct,
    watched_at: isoTime(entry.createdAt),
    ...(closedShape === undefined ? {} : { alerts_cannot_fire: closedSegmentNote(closedShape) }),
  };
}

/**
 * Why a closed own segment (kept before loops and out-and-backs were refused,
 * flagged by migration 0007) never alerts, and where its wind is judged
 * instead: the alert job skips it, so the watchlist must not let the rider
 * wait for an alert that cannot come.
 */
export function closedSegmentNote(shape: 'loop' | 'out_and_back'): string {
  return (
    `${shape === 'loop' ? 'A loop' : 'An out-and-back'} has no one direction: its tailwind is about 0 in any ` +
    'wind, so no alert is sent. Ask get_route_wind with its route for the best start and direction; ' +
    'remove_my_segment frees its place.'
  );
}

/** A watch as the tools that change it answer: the settings and the segment's name (see `WatchSchema`). */
export function watchOut(entry: WatchEntry, segment: Segment | undefined): WatchOut {
  const { segment: facts, ...settings } = watchEntryOut(entry, segment);
  return { ...settings, segment_name: facts?.name ?? null };
}
