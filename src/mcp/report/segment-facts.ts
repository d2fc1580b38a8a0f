import type { Segment } from '../../data/segments/types.ts';
import type { z } from 'zod';
import type { SegmentFactsSchema } from '../schemas/segment.ts';
import { bearingOf, startOf, toPoint } from '../../data/segments/segment-geometry.ts';

/** The catalog entry in the snake_case shape every tool answers with. */
export function segmentFacts(segment: Segment): z.infer<typeof SegmentFactsSchema> {
  return {
    id: segment.id,
    name: segment.name,
    country_code: segment.countryCode,
    distance_m: segment.distanceM,
    average_grade_pct: segment.averageGradePct,
    elevation_gain_m: segment.elevationGainM,
    popularity_rank: segment.popularityRank,
    start: toPoint(startOf(segment)),
    bearing_deg: bearingOf(segment),
  };
}
