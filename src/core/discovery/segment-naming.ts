import { initialBearing, type LatLon } from '../bearing.ts';
import { chooseDistinct, isMostlyMinor, type Choosable } from './segment-choice.ts';
import type { FoundSegment } from './found-segment.ts';
import type { OsmExtract } from './osm-types.ts';
import type { RoadEdge, RoadGraph } from './road-graph.ts';
import type { RoadKind } from './road-kind.ts';
import { edgeOfStep, endOf } from './road-strokes.ts';
import {
  climbName,
  isIn,
  placeNamedByStreet,
  settlementAt,
  skiAreaNear,
  stretchName,
  topPlace,
  type PlaceIndex,
  type PlaceMatch,
} from './segment-name.ts';
import type { RankBasis } from './segment-rank.ts';
import { CYCLE_NETWORKS } from './stretch-paths.ts';
import { headingWord, sideWord } from './segment-words.ts';

/**
 * The names and ranks stage: each segment found is named from the map
 * around it, the noise and near-copies are dropped ({@link chooseDistinct}),
 * and two segments left with one name are told apart by a village one of
 * them passes ("La Rabassa from Sant Julià de Lòria via Aixirivall"), else
 * by the side or the way they run. Pure.
 */

export interface NamingContext {
  readonly graph: RoadGraph;
  readonly places: PlaceIndex;
  /** The best signed cycle network each way lies on. */
  readonly networks: ReadonlyMap<number, string>;
  /** Ways the map links to Wikidata or Wikipedia. */
  readonly wikiWays: ReadonlySet<number>;
}

/** The best signed cycle network each way lies on (`icn` > `ncn` > `rcn` > `lcn`). */
function networkByWay(extract: OsmExtract): Map<number, string> {
  const best = new Map<number, string>();
  for (const relation of extract.relations) {
    const network = relation.tags['network'] ?? '';
    if (relation.tags['route'] !== 'bicycle' || !CYCLE_NETWORKS.includes(network)) continue;
    for (const member of relation.members) {
      if (member.type !== 'way') continue;
      const held = best.get(member.ref);
      if (held === undefined || CYCLE_NETWORKS.indexOf(network) < CYCLE_NETWORKS.indexOf(held)) {
        best.set(member.ref, network);
      }
    }
  }
  return best;
}

/** What the naming reads off the extract besides the graph and the places: cycle networks, wiki links. */
export function mapFactsOf(extract: OsmExtract): Pick<NamingContext, 'networks' | 'wikiWays'> {
  const wikiWays = new Set(
    extract.ways
      .filter((way) => way.tags['wikidata'] !== undefined || way.tags['wikipedia'] !== undefined)
      .map((way) => way.id),
  );
  return { networks: networkByWay(extract), wikiWays };
}

export interface NamedSegment extends Choosable {
  readonly name: string;
  /** Other names riders know it by (the top's own name). */
  readonly aliases: readonly string[];
  readonly basis: RankBasis;
  readonly wayIds: readonly number[];
}

/** Settlements passed are looked for every this many metres along a segment. */
const PASS_PROBE_M = 250;

function kindOf(graph: RoadGraph, step: number): RoadKind {
  return (graph.edges[edgeOfStep(step)] as RoadEdge).kind;
}

/** The ways a segment runs along, in riding order, each once. */
function waysOf(graph: RoadGraph, found: FoundSegment): number[] {
  return [...new Set(found.steps.map((step) => (graph.edges[edgeOfStep(step)] as RoadEdge).wayId))];
}

/**
 * The road a climb tops out on; when its last way has a number but no name,
 * the name the same road number carries nearest the top (Andorra's CS-101 is
 * unnamed over its last way, "Carretera de la Comella" below it).
 */
function roadAtTop(graph: RoadGraph, found: FoundSegment): RoadKind {
  const last = found.steps.at(-1) as number;
  const top = kindOf(graph, last);
  if (top.name !== null || top.ref === null) return top;
  const sameNumberNamed = (kind: RoadKind) => kind.ref === top.ref && kind.name !== null;
  const named =
    found.steps
      .toReversed()
      .map((step) => kindOf(graph, step))
      .find(sameNumberNamed) ?? namedBeyond(graph, last, sameNumberNamed);
  return named ? { ...top, name: named.name } : top;
}

/** How far past a climb's top the road's number is followed to find its name. */
const NAME_BEYOND_TOP_M = 2_000;

/**
 * The name the road carries just past the top, followed along its number:
 * Andorra's CS-101 is unnamed up to its top and becomes "Carretera de la
 * Comella" 1.3 km on. Null when the number carries no name that close.
 */
function namedBeyond(graph: RoadGraph, last: number, wanted: (kind: RoadKind) => boolean): RoadKind | null {
  const seen = new Set([edgeOfStep(last)]);
  let frontier: { junction: number; reachedM: number }[] = [{ junction: endOf(graph, last), reachedM: 0 }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { junction, reachedM } of frontier) {
      for (const index of graph.at.get(junction) ?? []) {
        const edge = graph.edges[index] as RoadEdge;
        if (seen.has(index) || edge.kind.ref !== kindOf(graph, last).ref) continue;
        seen.add(index);
        if (wanted(edge.kind)) return edge.kind;
        const reached = reachedM + edge.lengthM;
        if (reached < NAME_BEYOND_TOP_M)
          next.push({ junction: edge.from === junction ? edge.to : edge.from, reachedM: reached });
      }
    }
    frontier = next;
  }
  return null;
}

/** How close to a dead end a climb's top lies when the climb ends where its road ends. */
const ROAD_END_M = 250;

/** True when the climb's top is at (or within {@link ROAD_END_M} of) the end of its road, a dead end. */
function endsAtRoadEnd(graph: RoadGraph, found: FoundSegment): boolean {
  const last = found.steps.at(-1) as number;
  const end = endOf(graph, last);
  if ((graph.at.get(end) ?? []).length !== 1) return false;
  const [from, to] = found.coverage.get(last) ?? [0, 0];
  const edge = graph.edges[edgeOfStep(last)] as RoadEdge;
  return edge.lengthM - Math.max(from, to) <= ROAD_END_M;
}

/** The road a stretch is called by: the route, else the number or name it runs along longest. */
function stretchRoad(graph: RoadGraph, found: FoundSegment): string {
  if (found.route) return found.route.name;
  const metres = new Map<string, number>();
  for (const [step, [from, to]] of found.coverage) {
    const kind = kindOf(graph, step);
    const label = kind.ref ?? kind.name;
    if (label !== null) metres.set(label, (metres.get(label) ?? 0) + to - from);
  }
  return [...metres].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? 'Road';
}

function bestNetwork(wayIds: readonly number[], networks: ReadonlyMap<number, string>): string | null {
  let best: string | null = null;
  for (const id of wayIds) {
    const network = networks.get(id);
    if (
      network !== undefined &&
      (best === null || CYCLE_NETWORKS.indexOf(network) < CYCLE_NETWORKS.indexOf(best))
    ) {
      best = network;
    }
  }
  return best;
}

/** Names one segment and says what it ranks on. */
export function nameSegment(found: FoundSegment, context: NamingContext): NamedSegment {
  const { graph, places } = context;
  const first = found.samples[0] as LatLon;
  const last = found.samples.at(-1) as LatLon;
  const foot = settlementAt(places, first);
  const wayIds = waysOf(graph, found);
  const wiki = wayIds.some((id) => context.wikiWays.has(id));
  // A variant of a climb starts in a town or village, where a guide would start it, not at a hamlet.
  const footTown = isIn(foot) && foot && foot.place.kind !== 'hamlet' ? foot.place.name : null;
  if (found.kind === 'stretch') {
    const heading = headingWord(initialBearing(first, last));
    return {
      found,
      name: stretchName(stretchRoad(graph, found), foot, settlementAt(places, last), heading),
      aliases: found.route?.alsoSigned ?? [],
      basis: { network: bestNetwork(wayIds, context.networks), namedPass: false, wiki, sizeM: 0 },
      // Along the best-signed route first, then the longest.
      weight:
        found.figures.lengthM +
        (found.route ? (CYCLE_NETWORKS.length - CYCLE_NETWORKS.indexOf(found.route.network)) * 1e6 : 0),
      footTown,
      wayIds,
    };
  }
  const top = topPlace(places, last);
  const road = roadAtTop(graph, found);
  const name = climbName({
    top,
    road,
    foot,
    topElevationM: found.heights.at(-1) ?? 0,
    streetPlace: road.name === null ? null : placeNamedByStreet(places, road.name, last),
    skiArea: endsAtRoadEnd(graph, found) ? skiAreaNear(places, last) : null,
  });
  return {
    found,
    name,
    aliases: top && top.place.name !== name ? [top.place.name] : [],
    basis: {
      network: bestNetwork(wayIds, context.networks),
      namedPass: top?.place.kind === 'pass',
      wiki: wiki || (top?.place.wiki ?? false),
      sizeM: (found.figures.gainM * found.figures.averageGradePct) / 100,
    },
    weight: found.figures.netRiseM * 1e6 + found.figures.lengthM,
    footTown,
    wayIds,
  };
}

/** The settlements a segment runs through, in riding order, each once. */
function settlementsPassed(places: PlaceIndex, found: FoundSegment): string[] {
  const passed: string[] = [];
  let next = 0;
  for (const sample of found.samples) {
    if (sample.distanceM < next) continue;
    next = sample.distanceM + PASS_PROBE_M;
    const match: PlaceMatch | null = settlementAt(places, sample);
    if (match && isIn(match) && !passed.includes(match.place.name)) passed.push(match.place.name);
  }
  return passed;
}

/** The name of the road a segment starts on, when it has one. */
function firstRoadName(graph: RoadGraph, found: FoundSegment): string | null {
  const kind = kindOf(graph, found.steps[0] as number);
  return kind.name ?? kind.ref;
}

/**
 * Segments left sharing a name: the heaviest keeps it, each other one gets
 * " via X", X the first settlement it passes that the heaviest does not,
 * else " by R", R the road it starts on when that differs (a guide's "La
 * Rabassa by Juberri"), else the side it climbs or the way it runs.
 */
function withDistinctNames(named: readonly NamedSegment[], context: NamingContext): NamedSegment[] {
  const groups = new Map<string, number[]>();
  named.forEach((segment, i) => groups.set(segment.name, [...(groups.get(segment.name) ?? []), i]));
  const out = [...named];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const [head, ...rest] = [...members].sort(
      (a, b) => (named[b] as NamedSegment).weight - (named[a] as NamedSegment).weight || a - b,
    );
    const lead = named[head as number] as NamedSegment;
    const leadPassed = new Set(settlementsPassed(context.places, lead.found));
    const leadRoad = firstRoadName(context.graph, lead.found);
    const taken = new Set([lead.name]);
    for (const i of rest) {
      const segment = named[i] as NamedSegment;
      const via = settlementsPassed(context.places, segment.found).find(
        (name) => !leadPassed.has(name) && name !== segment.footTown,
      );
      const road = firstRoadName(context.graph, segment.found);
      const start = segment.found.samples[0] as LatLon;
      const end = segment.found.samples.at(-1) as LatLon;
      const side =
        segment.found.kind === 'climb'
          ? `(${sideWord(initialBearing(end, start))} side)`
          : `(${headingWord(initialBearing(start, end))})`;
      const options = [
        ...(via ? [`via ${via}`] : []),
        ...(road !== null && road !== leadRoad ? [`by ${road}`] : []),
        side,
      ];
      const name = options.map((option) => `${segment.name} ${option}`).find((n) => !taken.has(n));
      if (name !== undefined) {
        taken.add(name);
        out[i] = { ...segment, name };
      }
    }
  }
  return out;
}

/**
 * Names every segment found, drops climbs that lie mostly on lanes and
 * streets, keeps the distinct ones (climbs before stretches, the bigger
 * first) and makes their names unique.
 */
export function nameAndChoose(found: readonly FoundSegment[], context: NamingContext): NamedSegment[] {
  const candidates = found
    .filter((segment) => segment.route !== null || !isMostlyMinor(context.graph, segment))
    .map((segment) => nameSegment(segment, context));
  const climbs = chooseDistinct(candidates.filter((c) => c.found.kind === 'climb'));
  const kept = chooseDistinct(
    candidates.filter((c) => c.found.kind === 'stretch'),
    climbs,
  );
  return withDistinctNames(kept, context);
}
