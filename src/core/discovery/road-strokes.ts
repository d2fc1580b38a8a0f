import type { RoadEdge, RoadGraph } from './road-graph.ts';
import type { RoadKind } from './road-kind.ts';

/**
 * The roads a rider follows, read off the road graph: at every junction a
 * rider arriving on one edge goes on along the edge the continuation rule
 * prefers, and the edges so joined, end to end, are a stroke. Strokes are
 * directed: a one-way edge is only ridden its own way, so on a split
 * carriageway the stroke going up takes one carriageway and the one coming
 * down the other. Pure.
 *
 * An edge ridden one way is a step: `edge * 2` from its `from` junction to
 * its `to`, `edge * 2 + 1` the other way round.
 */

/** Ridden forward (from → to) or backward. */
export const stepOf = (edge: number, forward: boolean): number => edge * 2 + (forward ? 0 : 1);
export const edgeOfStep = (step: number): number => step >> 1;
export const isForward = (step: number): boolean => (step & 1) === 0;
/** The same edge ridden the other way. */
export const reverseStep = (step: number): number => step ^ 1;

/** The junction a step leaves from. */
export function startOf(graph: RoadGraph, step: number): number {
  const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
  return isForward(step) ? edge.from : edge.to;
}

/** The junction a step arrives at. */
export function endOf(graph: RoadGraph, step: number): number {
  const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
  return isForward(step) ? edge.to : edge.from;
}

/** A bicycle may ride this step. */
export function isAllowed(graph: RoadGraph, step: number): boolean {
  const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
  return isForward(step) ? edge.forward : edge.backward;
}

/** Heading a rider leaves a junction on, along this step. */
export function departureHeading(graph: RoadGraph, step: number): number | null {
  const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
  return isForward(step) ? edge.headingFrom : edge.headingTo;
}

/** Heading a rider arrives at the step's end junction on (pointing forward). */
export function arrivalHeading(graph: RoadGraph, step: number): number | null {
  const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
  const back = isForward(step) ? edge.headingTo : edge.headingFrom;
  return back === null ? null : (back + 180) % 360;
}

/** Change of heading from `a` to `b`, degrees in [0, 180]; 180 when either is unknown. */
export function turnBetween(a: number | null, b: number | null): number {
  if (a === null || b === null) return 180;
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/**
 * The same road goes on through a turn up to this sharp: a hairpin at a
 * junction is still the road; a full reversal (onto the other carriageway of
 * a dual road) is not.
 */
export const SAME_ROAD_MAX_TURN_DEG = 160;
/** Onto another road of the same or a higher class, or along a link, a rider goes on through a turn up to this. */
export const OTHER_ROAD_MAX_TURN_DEG = 60;
/** Onto a smaller road (a village street the way goes on through) only nearly straight on. */
export const SMALLER_ROAD_MAX_TURN_DEG = 30;

/**
 * How well `departure` continues `arrival` at a junction, lower better, or
 * null when a rider would not take it as the same way on:
 * 0, the same road number; 1, the same name (no other number); 2, another
 * road of the same or a higher class, or a link (a ref or name change at a
 * parish or county line, an unnamed link of a main road); 3, a smaller road
 * nearly straight on (a village street the way continues through).
 */
export function continuationLevel(arrival: RoadKind, departure: RoadKind, turnDeg: number): number | null {
  if (arrival.ref !== null && arrival.ref === departure.ref) {
    return turnDeg <= SAME_ROAD_MAX_TURN_DEG ? 0 : null;
  }
  const numbersAgree = arrival.ref === null || departure.ref === null;
  if (arrival.name !== null && arrival.name === departure.name && numbersAgree) {
    return turnDeg <= SAME_ROAD_MAX_TURN_DEG ? 1 : null;
  }
  if (departure.rank >= arrival.rank || departure.link || arrival.link) {
    return turnDeg <= OTHER_ROAD_MAX_TURN_DEG ? 2 : null;
  }
  return turnDeg <= SMALLER_ROAD_MAX_TURN_DEG ? 3 : null;
}

/** One way on from a junction: the step taken, how it continues the arrival (see {@link continuationLevel}) and the turn. */
export interface Continuation {
  readonly step: number;
  readonly level: number;
  readonly turnDeg: number;
}

/**
 * Every way on a rider may take after arriving by `arrival`, best first:
 * allowed steps leaving its end junction, not back along the same edge,
 * ordered by level, then by turn, then by step for a stable order.
 */
export function continuationsAfter(graph: RoadGraph, arrival: number): Continuation[] {
  const junction = endOf(graph, arrival);
  const heading = arrivalHeading(graph, arrival);
  const kind = (graph.edges[edgeOfStep(arrival)] as RoadEdge).kind;
  const found: Continuation[] = [];
  for (const edge of graph.at.get(junction) ?? []) {
    for (const step of [stepOf(edge, true), stepOf(edge, false)]) {
      if (step === reverseStep(arrival) || startOf(graph, step) !== junction || !isAllowed(graph, step))
        continue;
      const turnDeg = turnBetween(heading, departureHeading(graph, step));
      const level = continuationLevel(kind, (graph.edges[edge] as RoadEdge).kind, turnDeg);
      if (level !== null) found.push({ step, level, turnDeg });
    }
  }
  return found.sort((a, b) => a.level - b.level || a.turnDeg - b.turnDeg || a.step - b.step);
}

/** A road followed from junction to junction: its steps in riding order. */
export interface Stroke {
  readonly steps: readonly number[];
}

/**
 * The strokes of a graph. At each junction the arrivals and departures are
 * paired best first ({@link continuationsAfter}'s order over all pairs), each
 * used once, so a T junction continues the through road and the branch
 * starts a stroke of its own. Every allowed step lies on exactly one stroke;
 * a stroke never visits a junction twice (a ring of roads is cut where it
 * would close). The same graph always gives the same strokes.
 */
export function buildStrokes(graph: RoadGraph): Stroke[] {
  const stepCount = graph.edges.length * 2;
  const next = new Int32Array(stepCount).fill(-1);
  const previous = new Int32Array(stepCount).fill(-1);
  const junctions = [...graph.at.keys()].sort((a, b) => a - b);
  for (const junction of junctions) {
    const pairs: { arrival: number; departure: Continuation }[] = [];
    for (const edge of graph.at.get(junction) ?? []) {
      for (const arrival of [stepOf(edge, true), stepOf(edge, false)]) {
        if (endOf(graph, arrival) !== junction || !isAllowed(graph, arrival)) continue;
        for (const departure of continuationsAfter(graph, arrival)) pairs.push({ arrival, departure });
      }
    }
    pairs.sort(
      (a, b) =>
        a.departure.level - b.departure.level ||
        a.departure.turnDeg - b.departure.turnDeg ||
        a.arrival - b.arrival ||
        a.departure.step - b.departure.step,
    );
    for (const { arrival, departure } of pairs) {
      if (next[arrival] !== -1 || previous[departure.step] !== -1) continue;
      next[arrival] = departure.step;
      previous[departure.step] = arrival;
    }
  }

  const used = new Uint8Array(stepCount);
  const strokes: Stroke[] = [];
  const walk = (first: number) => {
    const steps = [first];
    used[first] = 1;
    const seen = new Set([startOf(graph, first), endOf(graph, first)]);
    for (let step = next[first] as number; step !== -1 && !used[step]; step = next[step] as number) {
      const end = endOf(graph, step);
      if (seen.has(end)) break;
      seen.add(end);
      steps.push(step);
      used[step] = 1;
    }
    strokes.push({ steps });
  };
  // Strokes start where nothing leads in, or where a walk was cut; what is left after that lies on
  // rings, walked from its lowest step.
  const opens = (step: number) => previous[step] === -1 || used[previous[step] as number] === 1;
  for (let walked = true; walked;) {
    walked = false;
    for (let step = 0; step < stepCount; step++) {
      if (!used[step] && isAllowed(graph, step) && opens(step)) {
        walk(step);
        walked = true;
      }
    }
    if (walked) continue;
    for (let step = 0; step < stepCount && !walked; step++) {
      if (!used[step] && isAllowed(graph, step)) {
        walk(step);
        walked = true;
      }
    }
  }
  return strokes;
}
