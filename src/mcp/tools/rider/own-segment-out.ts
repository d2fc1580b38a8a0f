import type { OwnSegment } from '../../../data/segments/owned-segment.ts';
import type { OwnSegmentOut } from '../../schemas/own-segments.ts';
import type { RiderSegment } from '../../../service/own-segments.ts';
import { riderSegmentFacts } from './watch-entry.ts';

/** A stored own segment in answer shape: the facts every rider tool shows, plus how it was read. */
export function ownSegmentOut(segment: OwnSegment, stored: RiderSegment, pointsRead: number): OwnSegmentOut {
  return {
    ...riderSegmentFacts(segment),
    source: stored.source,
    points_read: pointsRead,
    points_kept: stored.points.length,
    elevation_coverage: stored.elevationCoverage,
  };
}
