import type { SegmentCatalog } from '../../../data/segments/types.ts';
import type { WatchEntry } from '../../../store/repositories/watchlist.ts';
import { segmentFacts } from '../../report/segment-facts.ts';
import { isoTime } from '../../../core/time.ts';
import type { WatchEntryOut } from '../../schemas/rider.ts';

/**
 * A stored watch in answer shape. The catalog can lose a segment a rider
 * watches (an operator re-imports it); the entry then says so instead of
 * failing the whole answer, and unwatch_segment still removes it.
 */
export function watchEntryOut(entry: WatchEntry, catalog: SegmentCatalog): WatchEntryOut {
  const segment = catalog.get(entry.segmentId);
  return {
    segment_id: entry.segmentId,
    catalog_status: segment ? 'in_catalog' : 'missing_from_catalog',
    segment: segment ? segmentFacts(segment) : null,
    record_s: entry.recordS,
    alerts_on: entry.alertsOn,
    threshold_kmh: entry.thresholdKmh,
    watched_at: isoTime(entry.createdAt),
  };
}
