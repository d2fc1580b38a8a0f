import type { LatLon } from '../../core/bearing.ts';
import { CLIMB_RULE } from '../../core/discovery/climb-rule.ts';
import type { RoadGraph } from '../../core/discovery/road-graph.ts';
import { edgeSamples, sampledEdge, type SampledEdge } from '../../core/discovery/road-profile.ts';
import { thin, type RoadSample } from '../../core/discovery/road-samples.ts';
import { edgeOfStep, isForward, type Stroke } from '../../core/discovery/road-strokes.ts';
import type { ElevationSource } from './types.ts';

/**
 * The heights stage of discovery: the graph's edges get heights from the
 * elevation source, but only where they can matter. Every long stroke is
 * first read coarsely; one whose heights vary too little to hold a climb is
 * not read finely unless a stretch may lie along it. Each edge is read once,
 * however many strokes and climbs run along it. A failure of the source
 * throws before anything is returned.
 */

/** The first, coarse look at a road: one height every 500 m. */
export const COARSE_SPACING_M = 500;
/** A road whose coarse heights vary by less than this cannot hold a 50 m climb; it is not read finely. */
export const COARSE_RELIEF_M = 35;

export interface RoadHeights {
  readonly sampled: ReadonlyMap<number, SampledEdge>;
  /** Strokes read finely. */
  readonly sampledStrokes: number;
  /** Heights asked of the source, coarse and fine. */
  readonly heights: number;
}

function relief(heights: readonly number[]): number {
  return heights.length === 0 ? 0 : Math.max(...heights) - Math.min(...heights);
}

/** A stroke's samples, from its edges' samples (each edge densified once). */
function strokeSamples(
  steps: readonly number[],
  edgeSample: (edge: number) => readonly RoadSample[],
): RoadSample[] {
  const out: RoadSample[] = [];
  let offset = 0;
  for (const step of steps) {
    const samples = edgeSample(edgeOfStep(step));
    const length = samples.at(-1)?.distanceM ?? 0;
    const ordered = isForward(step) ? samples : samples.toReversed();
    for (const s of ordered.slice(out.length === 0 ? 0 : 1)) {
      out.push({
        lat: s.lat,
        lon: s.lon,
        distanceM: offset + (isForward(step) ? s.distanceM : length - s.distanceM),
      });
    }
    offset += length;
  }
  return out;
}

/** Heights for many point lists at once: one call to the source, which batches its own requests. */
async function heightsFor(
  groups: readonly (readonly LatLon[])[],
  elevation: ElevationSource,
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const all = await elevation.elevations(groups.flat(), signal);
  const out: number[][] = [];
  let at = 0;
  for (const group of groups) {
    out.push(all.slice(at, at + group.length));
    at += group.length;
  }
  return out;
}

/**
 * Heights for the edges of every stroke with relief (coarse heights varying
 * by {@link COARSE_RELIEF_M} or more) and of every path a stretch may lie on
 * (`stretchPaths`, read whatever their relief).
 */
export async function roadHeights(
  graph: RoadGraph,
  strokes: readonly Stroke[],
  stretchPaths: readonly { readonly steps: readonly number[] }[],
  elevation: ElevationSource,
  signal?: AbortSignal,
): Promise<RoadHeights> {
  const dense = new Map<number, RoadSample[]>();
  const edgeSample = (edge: number) => {
    let samples = dense.get(edge);
    if (!samples) dense.set(edge, (samples = edgeSamples(graph, edge)));
    return samples;
  };
  // A two-way road has a stroke each way over the same edges: its relief is read once.
  const seen = new Set<string>();
  const long = strokes.filter((stroke) => {
    const key = stroke.steps
      .map(edgeOfStep)
      .sort((a, b) => a - b)
      .join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    const length = stroke.steps.reduce((sum, step) => sum + (graph.edges[edgeOfStep(step)]?.lengthM ?? 0), 0);
    return length >= CLIMB_RULE.minLengthM;
  });
  const coarse = await heightsFor(
    long.map((stroke) => thin(strokeSamples(stroke.steps, edgeSample), COARSE_SPACING_M)),
    elevation,
    signal,
  );
  const wanted = new Set<number>();
  let sampledStrokes = 0;
  long.forEach((stroke, k) => {
    if (relief(coarse[k] ?? []) < COARSE_RELIEF_M) return;
    sampledStrokes += 1;
    for (const step of stroke.steps) wanted.add(edgeOfStep(step));
  });
  for (const path of stretchPaths) for (const step of path.steps) wanted.add(edgeOfStep(step));
  const edges = [...wanted].sort((a, b) => a - b);
  const fine = await heightsFor(
    edges.map((edge) => edgeSample(edge)),
    elevation,
    signal,
  );
  const sampled = new Map<number, SampledEdge>();
  edges.forEach((edge, k) => sampled.set(edge, sampledEdge(graph, edge, edgeSample(edge), fine[k] ?? [])));
  const heights = coarse.reduce((n, h) => n + h.length, 0) + fine.reduce((n, h) => n + h.length, 0);
  return { sampled, sampledStrokes, heights };
}
