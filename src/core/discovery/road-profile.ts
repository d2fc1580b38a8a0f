import type { RoadEdge, RoadGraph } from './road-graph.ts';
import { acrossJunction } from './road-junctions.ts';
import { densify, type RoadSample } from './road-samples.ts';
import { edgeOfStep, isForward, startOf } from './road-strokes.ts';

/**
 * Heights along the road graph: each edge sampled once, and the profile of
 * any path of steps assembled from its edges' samples, so a climb that runs
 * on from one road into another needs no new heights. Pure; the heights come
 * from the caller's elevation source.
 */

/** Heights every 50 m: about two posts of the 90 m elevation models per sample, enough for a 100 m grade. */
export const SAMPLE_STEP_M = 50;

/** An edge's samples from its `from` end (distances from 0) and a height for each. */
export interface SampledEdge {
  readonly samples: readonly RoadSample[];
  readonly heights: readonly number[];
}

/** The points at which an edge's heights are read, every {@link SAMPLE_STEP_M} or closer, on the road. */
export function edgeSamples(graph: RoadGraph, edge: number): RoadSample[] {
  return densify(graph.edges[edge]?.points ?? [], SAMPLE_STEP_M);
}

/**
 * Heights for an edge's samples as read, except through a tunnel: there a
 * terrain model gives the mountain above, so the heights between the two
 * portals are drawn as a straight line between the portals' heights.
 */
export function sampledEdge(
  graph: RoadGraph,
  edge: number,
  samples: readonly RoadSample[],
  heights: readonly number[],
): SampledEdge {
  if (!graph.edges[edge]?.tunnel || samples.length < 2) return { samples, heights };
  const first = heights[0] ?? 0;
  const last = heights.at(-1) ?? first;
  const length = samples.at(-1)?.distanceM ?? 0;
  return {
    samples,
    heights: samples.map((s) => (length > 0 ? first + ((last - first) * s.distanceM) / length : first)),
  };
}

/** A path's samples in riding order (distances from its start), their heights, and where each step begins. */
export interface PathProfile {
  readonly steps: readonly number[];
  readonly samples: readonly RoadSample[];
  readonly heights: readonly number[];
  /** Index into `samples` of each step's first sample (a junction shared with the step before). */
  readonly stepStart: readonly number[];
}

/**
 * The profile of a path of steps, or null when one of its edges has no
 * heights (it was not sampled: see the elevation stage). A step ridden
 * backward takes its edge's samples back to front. Across a contracted
 * junction the path follows the junction's own pieces of road from the node
 * one step ends at to the node the next starts from, with heights drawn
 * straight between the two (a junction is tens of metres across).
 */
export function pathProfile(
  graph: RoadGraph,
  steps: readonly number[],
  sampled: ReadonlyMap<number, SampledEdge>,
): PathProfile | null {
  const samples: RoadSample[] = [];
  const heights: number[] = [];
  const stepStart: number[] = [];
  let offset = 0;
  let lastNode: number | null = null;
  for (const step of steps) {
    const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
    const own = sampled.get(edgeOfStep(step));
    if (!own || own.samples.length === 0) return null;
    const forward = isForward(step);
    const firstNode = forward ? edge.fromNode : edge.toNode;
    const junction = startOf(graph, step);
    if (lastNode !== null && lastNode !== firstNode && junction < 0) {
      const across = densify(acrossJunction(graph, junction, lastNode, firstNode), SAMPLE_STEP_M);
      const from = heights.at(-1) ?? 0;
      const to = (forward ? own.heights[0] : own.heights.at(-1)) ?? from;
      const length = across.at(-1)?.distanceM ?? 0;
      for (const s of across.slice(1, -1)) {
        samples.push({ lat: s.lat, lon: s.lon, distanceM: offset + s.distanceM });
        heights.push(length > 0 ? from + ((to - from) * s.distanceM) / length : from);
      }
      offset += length;
    }
    const length = own.samples.at(-1)?.distanceM ?? 0;
    const n = own.samples.length;
    // Consecutive steps share their junction's sample; across a contracted junction each keeps its own.
    const skipFirst = samples.length > 0 && lastNode === firstNode;
    stepStart.push(skipFirst ? samples.length - 1 : samples.length);
    for (let k = skipFirst ? 1 : 0; k < n; k++) {
      const i = forward ? k : n - 1 - k;
      const s = own.samples[i] as RoadSample;
      samples.push({
        lat: s.lat,
        lon: s.lon,
        distanceM: offset + (forward ? s.distanceM : length - s.distanceM),
      });
      heights.push(own.heights[i] ?? 0);
    }
    offset += length;
    lastNode = forward ? edge.toNode : edge.fromNode;
  }
  return { steps, samples, heights, stepStart };
}
