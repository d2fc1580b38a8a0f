import type { Segment } from '../../data/segments/types.ts';
import type { z } from 'zod';
import type { FoundSegmentSchema } from '../schemas/find.ts';
import type { SegmentFactsSchema } from '../schemas/segment.ts';
import { bearingOf, startOf, toPoint } from '../../data/segments/segment-geometry.ts';

type ListedFacts = Pick<
  z.infer<typeof FoundSegmentSchema>,
  'id' | 'name' | 'country_code' | 'distance_m' | 'average_grade_pct' | 'elevation_gain_m' | 'popularity_rank'
>;

/** The facts a list of segments gives (`FoundSegmentSchema`): all but the geometry, which get_segment has. */
export function listedFacts(segment: Segment): ListedFacts {
  return {
    id: segment.id,
    name: segment.name,
    country_code: segment.countryCode,
    distance_m: segment.distanceM,
    average_grade_pct: segment.averageGradePct,
    elevation_gain_m: segment.elevationGainM,
    popularity_rank: segment.popularityRank,
  };
}

/** The catalog entry in the snake_case shape every tool answers with. */
export function segmentFacts(segment: Segment): z.infer<typeof SegmentFactsSchema> {
  return { ...listedFacts(segment), start: toPoint(startOf(segment)), bearing_deg: bearingOf(segment) };
}
