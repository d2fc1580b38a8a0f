import type { ClimbSpan } from './climb-rule.ts';
import type { RoadGraph } from './road-graph.ts';
import type { PathProfile } from './road-profile.ts';
import type { RoadSample } from './road-samples.ts';
import { edgeOfStep } from './road-strokes.ts';

/**
 * A climb or stretch as the rules find it on the road graph, before it is
 * named, ranked and given an id: its line and heights in riding order, its
 * figures, and the road it covers (the steps, and how much of each), which
 * is what tells two segments on the same road apart from two on different
 * roads. Pure.
 */

/** Length, gain and grades of a stretch of profile, as the climb rule reports a climb. */
export type SpanFigures = Omit<ClimbSpan, 'startIndex' | 'endIndex'>;

/** A signed cycle route a stretch follows. */
export interface CycleRoute {
  readonly name: string;
  readonly network: string;
  /** Other routes signed along the same road (a EuroVelo over a national route): names riders may search for. */
  readonly alsoSigned: readonly string[];
}

export interface FoundSegment {
  readonly kind: 'climb' | 'stretch';
  /** The segment's samples in riding order, distances from its start. */
  readonly samples: readonly RoadSample[];
  readonly heights: readonly number[];
  readonly figures: SpanFigures;
  /** The steps it runs along, in riding order. */
  readonly steps: readonly number[];
  /**
   * The stretch of each step it covers, metres along the step in riding
   * order from its start (the first and last steps partly).
   */
  readonly coverage: ReadonlyMap<number, readonly [number, number]>;
  /** For a stretch on a signed cycle route: the route's name or number, its network (`icn` … `lcn`), other routes signed along it. */
  readonly route: CycleRoute | null;
}

/**
 * The part of `profile` from sample `from` to `to` as a found segment:
 * samples re-measured from its start, and the metres of each step it covers.
 */
export function foundOn(
  profile: PathProfile,
  from: number,
  to: number,
  kind: FoundSegment['kind'],
  figures: SpanFigures,
  route: FoundSegment['route'] = null,
): FoundSegment {
  const origin = profile.samples[from]?.distanceM ?? 0;
  const samples = profile.samples
    .slice(from, to + 1)
    .map((s) => ({ lat: s.lat, lon: s.lon, distanceM: s.distanceM - origin }));
  const coverage = new Map<number, readonly [number, number]>();
  const steps: number[] = [];
  const startM = origin;
  const endM = profile.samples[to]?.distanceM ?? origin;
  profile.steps.forEach((step, i) => {
    const a = profile.samples[profile.stepStart[i] ?? 0]?.distanceM ?? 0;
    const nextStart = profile.stepStart[i + 1];
    const b =
      nextStart === undefined
        ? (profile.samples.at(-1)?.distanceM ?? a)
        : (profile.samples[nextStart]?.distanceM ?? a);
    const from = Math.max(a, startM);
    const to = Math.min(b, endM);
    if (to > from) {
      coverage.set(step, [from - a, to - a]);
      steps.push(step);
    }
  });
  return { kind, samples, heights: profile.heights.slice(from, to + 1), figures, steps, coverage, route };
}

/**
 * Metres two segments share in the same direction: where they cover the
 * same stretch of the same steps. Two segments on one road in opposite
 * directions share nothing (their steps differ).
 */
export function sharedM(a: FoundSegment, b: FoundSegment): number {
  let shared = 0;
  for (const [step, [from, to]] of a.coverage) {
    const other = b.coverage.get(step);
    if (other !== undefined) shared += Math.max(0, Math.min(to, other[1]) - Math.max(from, other[0]));
  }
  return shared;
}

/** Metres of a segment on each road class (`highway` without `_link`). */
export function metresByClass(graph: RoadGraph, segment: FoundSegment): Map<string, number> {
  const byClass = new Map<string, number>();
  for (const [step, [from, to]] of segment.coverage) {
    const metres = to - from;
    const highway = graph.edges[edgeOfStep(step)]?.kind.highway ?? '';
    byClass.set(highway, (byClass.get(highway) ?? 0) + metres);
  }
  return byClass;
}
