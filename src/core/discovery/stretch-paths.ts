import { measureSpan, smoothProfile, CLIMB_RULE } from './climb-rule.ts';
import { foundOn, type CycleRoute, type FoundSegment } from './found-segment.ts';
import type { OsmRelation } from './osm-types.ts';
import type { RoadEdge, RoadGraph } from './road-graph.ts';
import { CLASS_RANK, type RoadKind } from './road-kind.ts';
import { pathProfile, type PathProfile, type SampledEdge } from './road-profile.ts';
import {
  buildStrokes,
  edgeOfStep,
  isAllowed,
  isForward,
  reverseStep,
  stepOf,
  type Stroke,
} from './road-strokes.ts';
import { splitByDirection } from './stretches.ts';

/**
 * Flat and rolling stretches, where a wind decides a ride: along signed
 * cycle routes first, then along long main roads, each cut where its heading
 * turns so that it has one overall direction, each direction its own
 * segment. Pure.
 */

/** Signed cycle route networks, best first. */
export const CYCLE_NETWORKS: readonly string[] = ['icn', 'ncn', 'rcn', 'lcn'];

/** A stretch is at least this long along the road: shorter, and the ride is over before the wind tells. */
export const STRETCH_MIN_M = 2_000;
/** …and at most this long: longer, and the forecast wind itself changes along the way. */
export const STRETCH_MAX_M = 15_000;
/** Steeper than this on average, a stretch is a climb or a descent, not a flat or rolling road. */
export const STRETCH_MAX_GRADE_PCT = 3;
/** Main roads: tertiary and bigger, with a name or a number to be called by. */
export const MAIN_ROAD_RANK = CLASS_RANK['tertiary'] ?? 4;
/** A stroke is a main road when this share of it is. */
export const MAIN_ROAD_SHARE = 0.8;

/** A road a stretch may lie along: its steps, and the route it follows when it is a signed cycle route. */
export interface StretchPath {
  readonly steps: readonly number[];
  readonly route: CycleRoute | null;
}

/** The same edges, whichever way round: a road's two strokes (one each way) share a key. */
const edgesKey = (steps: readonly number[]) =>
  steps
    .map(edgeOfStep)
    .sort((a, b) => a - b)
    .join(',');

const ROUTE_KIND: RoadKind = { ref: 'route', name: null, highway: 'route', rank: 0, link: false };

/**
 * The paths of each signed cycle route (`route=bicycle`, `network` in
 * {@link CYCLE_NETWORKS}) through the graph: its member ways' edges, joined
 * into strokes as if they were one road (a route turns where its signs
 * turn, onto roads of any class or name), so each path follows the route.
 */
export function cycleRoutePaths(graph: RoadGraph, relations: readonly OsmRelation[]): StretchPath[] {
  const byPath = new Map<string, { steps: readonly number[]; routes: { name: string; network: string }[] }>();
  const routes = relations
    .filter((r) => r.tags['route'] === 'bicycle' && CYCLE_NETWORKS.includes(r.tags['network'] ?? ''))
    .sort((a, b) => a.id - b.id);
  for (const relation of routes) {
    const ways = new Set(relation.members.filter((m) => m.type === 'way').map((m) => m.ref));
    const own = graph.edges.filter((edge) => ways.has(edge.wayId));
    if (own.length === 0) continue;
    const edges: RoadEdge[] = own.map((edge, index) => ({ ...edge, index, kind: ROUTE_KIND }));
    const at = new Map<number, number[]>();
    for (const edge of edges) {
      for (const junction of [edge.from, edge.to]) {
        const list = at.get(junction);
        if (list) list.push(edge.index);
        else at.set(junction, [edge.index]);
      }
    }
    const route = {
      name: relation.tags['name']?.trim() || relation.tags['ref']?.trim() || `Cycle route ${relation.id}`,
      network: relation.tags['network'] as string,
    };
    for (const stroke of buildStrokes({ ...graph, edges, at })) {
      const steps = stroke.steps.map((step) =>
        stepOf((own[edgeOfStep(step)] as RoadEdge).index, isForward(step)),
      );
      // Routes signed along the same road (EuroVelo 4 over the Main-Radweg) give one path, named by the best.
      const key = steps.join(',');
      const held = byPath.get(key);
      if (held) held.routes.push(route);
      else byPath.set(key, { steps, routes: [route] });
    }
  }
  return [...byPath.values()].map(({ steps, routes: signed }) => {
    const [best, ...others] = [...signed].sort(
      (a, b) => CYCLE_NETWORKS.indexOf(a.network) - CYCLE_NETWORKS.indexOf(b.network),
    ) as [{ name: string; network: string }, ...{ name: string; network: string }[]];
    const alsoSigned = [...new Set(others.map((r) => r.name))].filter((name) => name !== best.name);
    return { steps, route: { ...best, alsoSigned } };
  });
}

/** Strokes that are main roads ({@link MAIN_ROAD_RANK}, named or numbered) over {@link MAIN_ROAD_SHARE} of their length. */
export function mainRoadPaths(graph: RoadGraph, strokes: readonly Stroke[]): StretchPath[] {
  return strokes
    .filter((stroke) => {
      let main = 0;
      let all = 0;
      for (const step of stroke.steps) {
        const edge = graph.edges[edgeOfStep(step)] as RoadEdge;
        all += edge.lengthM;
        const named = edge.kind.ref !== null || edge.kind.name !== null;
        if (named && (edge.kind.rank >= MAIN_ROAD_RANK || edge.kind.link)) main += edge.lengthM;
      }
      return all >= STRETCH_MIN_M && main >= MAIN_ROAD_SHARE * all;
    })
    .map((stroke) => ({ steps: stroke.steps, route: null }));
}

/** The profile's smoothed heights, as the climb rule measures. */
function smoothed(profile: PathProfile) {
  return smoothProfile(
    { distanceM: profile.samples.map((s) => s.distanceM), elevationM: profile.heights },
    CLIMB_RULE.smoothingM,
  );
}

/** The sample of `profile` nearest `distanceM` along it. */
function sampleNear(profile: PathProfile, distanceM: number): number {
  let best = 0;
  profile.samples.forEach((s, i) => {
    if (Math.abs(s.distanceM - distanceM) < Math.abs((profile.samples[best]?.distanceM ?? 0) - distanceM))
      best = i;
  });
  return best;
}

/**
 * The flat and rolling stretches along `paths`: each road is cut by direction
 * once ({@link splitByDirection}, {@link STRETCH_MIN_M} to {@link STRETCH_MAX_M})
 * and each part kept when its average grade is under
 * {@link STRETCH_MAX_GRADE_PCT}, measured on the smoothed profile as climbs
 * are; where the road may be ridden back, the same part the other way is a
 * stretch of its own, so both directions cover the same road. A road whose
 * two strokes (one each way) are both given is cut once. Paths with an edge
 * that has no heights are skipped.
 */
export function stretchesAlong(
  graph: RoadGraph,
  paths: readonly StretchPath[],
  sampled: ReadonlyMap<number, SampledEdge>,
): FoundSegment[] {
  const done = new Set<string>();
  const found: FoundSegment[] = [];
  for (const path of paths) {
    const key = `${path.route?.name ?? ''}|${edgesKey(path.steps)}`;
    if (done.has(key)) continue;
    done.add(key);
    const profile = pathProfile(graph, path.steps, sampled);
    if (!profile) continue;
    const backSteps = path.steps.toReversed().map(reverseStep);
    const back = backSteps.every((step) => isAllowed(graph, step))
      ? pathProfile(graph, backSteps, sampled)
      : null;
    const smooth = smoothed(profile);
    const smoothBack = back ? smoothed(back) : null;
    const lengthM = profile.samples.at(-1)?.distanceM ?? 0;
    for (const part of splitByDirection(profile.samples, {
      minLengthM: STRETCH_MIN_M,
      maxLengthM: STRETCH_MAX_M,
    })) {
      const { startIndex, endIndex, ...figures } = measureSpan(smooth, part.startIndex, part.endIndex);
      if (Math.abs(figures.averageGradePct) >= STRETCH_MAX_GRADE_PCT) continue;
      found.push(foundOn(profile, startIndex, endIndex, 'stretch', figures, path.route));
      if (!back || !smoothBack) continue;
      // The same road ridden back: the same straightness and bearing, the same stretch the other way.
      const from = sampleNear(back, lengthM - (profile.samples[endIndex]?.distanceM ?? 0));
      const to = sampleNear(back, lengthM - (profile.samples[startIndex]?.distanceM ?? 0));
      if (to <= from) continue;
      const { startIndex: s, endIndex: e, ...backFigures } = measureSpan(smoothBack, from, to);
      found.push(foundOn(back, s, e, 'stretch', backFigures, path.route));
    }
  }
  return found;
}
