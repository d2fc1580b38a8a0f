import { findClimbs, CLIMB_RULE, type ClimbRule, type ClimbSpan } from './climb-rule.ts';
import type { RoadEdge, RoadGraph } from './road-graph.ts';
import { pathProfile, type PathProfile, type SampledEdge } from './road-profile.ts';
import {
  arrivalHeading,
  departureHeading,
  edgeOfStep,
  endOf,
  isAllowed,
  reverseStep,
  startOf,
  stepOf,
  turnBetween,
  type Stroke,
} from './road-strokes.ts';

/**
 * Climbs on the road graph, as a rider rides them: found along each stroke,
 * then carried on past the stroke's ends where the road goes on rising on
 * another road. A stroke ends where its road meets others and the
 * continuation rule gives the way on to another stroke (two valley roads
 * that join below a pass: only one continues as the pass road), or where the
 * road turns onto a crossing road; a climb that was still rising there goes
 * on up along the road that keeps rising, and one that starts there is
 * traced back down the road it came up. So the same top reached from two
 * valleys is two climbs that share their last kilometres. Pure.
 */

/** A climb and the path of steps it lies on (the path may run on beyond the climb). */
export interface PathClimb {
  readonly profile: PathProfile;
  readonly span: ClimbSpan;
}

/** A climb is carried on past a stroke's end at most this many times, each time along another road. */
export const MAX_EXTENSIONS = 6;
/** Onto another road a climb goes on through a turn up to this sharp (a T junction's 90° turn uphill). */
export const EXTENSION_MAX_TURN_DEG = 165;
/**
 * A road goes on rising when it rises at least this much over its first
 * {@link RISE_PROBE_M}: a climb's top is not moved onto a road that only
 * wobbles up before it falls.
 */
export const RISE_PROBE_GAIN_M = 10;
export const RISE_PROBE_M = 500;

/**
 * A climb whose top (or foot) lies this close to its path's end (or start)
 * may go on past it: the trim and the terrain model's noise can leave the
 * top a sample or two short of a junction the road climbs on through.
 */
export const END_REACH_M = 150;

/** Where each step lies: its stroke and its place in it. */
type StrokeIndex = ReadonlyMap<number, { stroke: number; at: number }>;

function indexStrokes(strokes: readonly Stroke[]): StrokeIndex {
  const index = new Map<number, { stroke: number; at: number }>();
  strokes.forEach((stroke, s) => stroke.steps.forEach((step, at) => index.set(step, { stroke: s, at })));
  return index;
}

/** Height gained over the first `probeM` of a profile (negative when it falls). */
function riseOver(profile: PathProfile, probeM: number): number {
  const first = profile.heights[0] ?? 0;
  let k = 0;
  while (k < profile.samples.length - 1 && (profile.samples[k]?.distanceM ?? 0) < probeM) k++;
  return (profile.heights[k] ?? first) - first;
}

/** The steps of `run` up to (not including) the first whose far junction is already in `seen`. */
function untilRevisit(graph: RoadGraph, run: readonly number[], seen: Set<number>): number[] {
  const kept: number[] = [];
  for (const step of run) {
    if (seen.has(endOf(graph, step))) break;
    kept.push(step);
  }
  return kept;
}

/**
 * The roads a climb may go on along from the far junction of `step` (or,
 * `backwards`, the roads it may have come up into the near one): allowed
 * steps through a turn of at most {@link EXTENSION_MAX_TURN_DEG}, on a road no
 * smaller than a residential street (or the climb's own road, if smaller),
 * straightest first.
 */
function neighbours(graph: RoadGraph, step: number, backwards: boolean): number[] {
  const junction = backwards ? startOf(graph, step) : endOf(graph, step);
  const own = graph.edges[edgeOfStep(step)] as RoadEdge;
  const heading = backwards ? departureHeading(graph, step) : arrivalHeading(graph, step);
  const found: { step: number; turn: number }[] = [];
  for (const edge of graph.at.get(junction) ?? []) {
    const other = graph.edges[edge] as RoadEdge;
    if (other.kind.rank < Math.min(own.kind.rank, 2)) continue;
    for (const candidate of [stepOf(edge, true), stepOf(edge, false)]) {
      if (candidate === reverseStep(step) || !isAllowed(graph, candidate)) continue;
      const touches = backwards ? endOf(graph, candidate) : startOf(graph, candidate);
      if (touches !== junction) continue;
      const turn = backwards
        ? turnBetween(arrivalHeading(graph, candidate), heading)
        : turnBetween(heading, departureHeading(graph, candidate));
      if (turn <= EXTENSION_MAX_TURN_DEG) found.push({ step: candidate, turn });
    }
  }
  return found.sort((a, b) => a.turn - b.turn || a.step - b.step).map((c) => c.step);
}

/**
 * The road a climb still rising at the end of `path` goes on up: of the
 * roads on from its last junction, the straightest whose stroke (from that
 * step on, cut where it would come back to the path) rises
 * {@link RISE_PROBE_GAIN_M} over its first {@link RISE_PROBE_M}; null when none does.
 */
function risingOn(
  graph: RoadGraph,
  path: readonly number[],
  strokes: readonly Stroke[],
  where: StrokeIndex,
  sampled: ReadonlyMap<number, SampledEdge>,
): number[] | null {
  const seen = new Set(path.map((step) => startOf(graph, step)));
  seen.add(endOf(graph, path.at(-1) as number));
  for (const next of neighbours(graph, path.at(-1) as number, false)) {
    const place = where.get(next);
    if (!place) continue;
    const run = untilRevisit(graph, (strokes[place.stroke] as Stroke).steps.slice(place.at), seen);
    const profile = run.length > 0 ? pathProfile(graph, run, sampled) : null;
    if (profile && riseOver(profile, RISE_PROBE_M) >= RISE_PROBE_GAIN_M) return run;
  }
  return null;
}

/** The mirror of {@link risingOn}: the road a climb starting at `path`'s first junction came up. */
function risingInto(
  graph: RoadGraph,
  path: readonly number[],
  strokes: readonly Stroke[],
  where: StrokeIndex,
  sampled: ReadonlyMap<number, SampledEdge>,
): number[] | null {
  const seen = new Set(path.map((step) => endOf(graph, step)));
  seen.add(startOf(graph, path[0] as number));
  for (const before of neighbours(graph, path[0] as number, true)) {
    const place = where.get(before);
    if (!place) continue;
    const upTo = (strokes[place.stroke] as Stroke).steps.slice(0, place.at + 1).toReversed();
    // Walked backwards from the junction: cut where it would come back to the path.
    const kept: number[] = [];
    for (const step of upTo) {
      if (seen.has(startOf(graph, step))) break;
      kept.push(step);
    }
    const run = kept.toReversed();
    const back = run.length > 0 ? pathProfile(graph, run.toReversed().map(reverseStep), sampled) : null;
    // Ridden back down from the junction it must fall: ridden up, it rises into the climb.
    if (back && riseOver(back, RISE_PROBE_M) <= -RISE_PROBE_GAIN_M) return run;
  }
  return null;
}

/** The climb of `spans` that overlaps samples [from, to] the most. */
function sameClimb(spans: readonly ClimbSpan[], from: number, to: number): ClimbSpan | null {
  let best: ClimbSpan | null = null;
  let bestOverlap = 0;
  for (const span of spans) {
    const overlap = Math.min(to, span.endIndex) - Math.max(from, span.startIndex);
    if (overlap > bestOverlap) [best, bestOverlap] = [span, overlap];
  }
  return best;
}

/**
 * Carries a climb found on `path` on past the path's ends while it is still
 * rising there (its top at the last sample, its foot at the first), at most
 * {@link MAX_EXTENSIONS} times, and measures it again on the longer path.
 */
function extended(
  graph: RoadGraph,
  start: PathClimb,
  strokes: readonly Stroke[],
  where: StrokeIndex,
  sampled: ReadonlyMap<number, SampledEdge>,
  rule: ClimbRule,
): PathClimb {
  let climb = start;
  for (let round = 0; round < MAX_EXTENSIONS; round++) {
    const { profile, span } = climb;
    const lengthM = profile.samples.at(-1)?.distanceM ?? 0;
    const topToEnd = lengthM - (profile.samples[span.endIndex]?.distanceM ?? 0);
    const startToFoot = profile.samples[span.startIndex]?.distanceM ?? 0;
    const after = topToEnd <= END_REACH_M ? risingOn(graph, profile.steps, strokes, where, sampled) : null;
    const before =
      startToFoot <= END_REACH_M ? risingInto(graph, profile.steps, strokes, where, sampled) : null;
    if (!after && !before) break;
    const steps = [...(before ?? []), ...profile.steps, ...(after ?? [])];
    const longer = pathProfile(graph, steps, sampled);
    if (!longer) break;
    const shift = before ? (longer.stepStart[before.length] ?? 0) : 0;
    const spans = findClimbs(
      { distanceM: longer.samples.map((s) => s.distanceM), elevationM: longer.heights },
      rule,
    );
    const next = sameClimb(spans, span.startIndex + shift, span.endIndex + shift);
    if (!next) break;
    climb = { profile: longer, span: next };
  }
  return climb;
}

/**
 * Every climb on the graph: the climbs of each stroke (in its own riding
 * direction; a two-way road has a stroke each way), each carried on past its
 * stroke's ends where the road goes on rising. Strokes with an edge that has
 * no heights are skipped. The same climb reached from two strokes is given
 * once.
 */
export function climbsOnGraph(
  graph: RoadGraph,
  strokes: readonly Stroke[],
  sampled: ReadonlyMap<number, SampledEdge>,
  rule: ClimbRule = CLIMB_RULE,
): PathClimb[] {
  const where = indexStrokes(strokes);
  const found = new Map<string, PathClimb>();
  for (const stroke of strokes) {
    const profile = pathProfile(graph, stroke.steps, sampled);
    if (!profile || profile.samples.length < 2) continue;
    const spans = findClimbs(
      { distanceM: profile.samples.map((s) => s.distanceM), elevationM: profile.heights },
      rule,
    );
    for (const span of spans) {
      const climb = extended(graph, { profile, span }, strokes, where, sampled, rule);
      const first = climb.profile.samples[climb.span.startIndex];
      const last = climb.profile.samples[climb.span.endIndex];
      const key = `${first?.lat},${first?.lon}>${last?.lat},${last?.lon}:${Math.round(climb.span.lengthM)}`;
      if (!found.has(key)) found.set(key, climb);
    }
  }
  return [...found.values()];
}
