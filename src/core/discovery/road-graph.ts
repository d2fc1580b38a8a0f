import { initialBearing, isSamePoint, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { OsmExtract, OsmTags, OsmWay } from './osm-types.ts';
import { gapLinks, junctionClusters, type InnerPiece, SHORT_PIECE_M } from './road-junctions.ts';
import { bicycleDirections, roadKind, type RoadKind } from './road-kind.ts';

/**
 * The rideable roads of an extract as a graph a rider moves on: ways cut at
 * every junction into edges, each with the way it is drawn by, the direction
 * a bicycle may ride it, and what kind of road it is. Small roundabouts are
 * contracted into one junction, so a road that crosses one goes straight on
 * through it; long tunnels, which bicycles may not or should not ride, are
 * left out; short ones stay, marked, so heights can be drawn across them.
 * Pure; the caller has already chosen the rideable ways (`isRideableRoad`).
 *
 * Written here rather than taken from a graph library: what matters is how
 * OpenStreetMap ways become edges (junctions at shared nodes, one-way rules,
 * roundabouts), a few loops that the graph packages do not do; the graph
 * itself is two arrays.
 */

/** One piece of a way between two junctions. */
export interface RoadEdge {
  readonly index: number;
  readonly wayId: number;
  /** Junction ids at either end: an OSM node id, or a negative id for a contracted junction. */
  readonly from: number;
  readonly to: number;
  /** The OSM nodes the edge is drawn from and to (inside a contracted junction, one of its nodes). */
  readonly fromNode: number;
  readonly toNode: number;
  /** The edge's points as drawn, from `fromNode` to `toNode`. */
  readonly points: readonly LatLon[];
  readonly lengthM: number;
  /** A bicycle may ride from `from` to `to`. */
  readonly forward: boolean;
  /** A bicycle may ride from `to` to `from`. */
  readonly backward: boolean;
  readonly kind: RoadKind;
  /** Drawn as a tunnel: a terrain model gives the hill above it, not the road. */
  readonly tunnel: boolean;
  /**
   * Heading from the `from` end into the edge, and from the `to` end back into
   * it, read on the way as drawn (not from a contracted junction's middle,
   * which would bend a road that passes a roundabout's edge), null when the
   * piece has no length.
   */
  readonly headingFrom: number | null;
  readonly headingTo: number | null;
}

export interface RoadGraph {
  readonly edges: readonly RoadEdge[];
  /** Edge indices meeting at each junction. */
  readonly at: ReadonlyMap<number, readonly number[]>;
  /** Each junction's point (a contracted one's is the middle of its nodes). */
  readonly points: ReadonlyMap<number, LatLon>;
  /** The pieces of road inside each contracted junction: how a rider gets across it. */
  readonly inner: ReadonlyMap<number, readonly InnerPiece[]>;
  /** Where each node a contracted junction is made of lies. */
  readonly nodePoints: ReadonlyMap<number, LatLon>;
}

/**
 * Tunnels longer than this are left out: bicycles are banned from most of
 * them (Envalira's 2.9 km, the Mont Blanc's 11.6 km) and a rider avoids the
 * rest. Shorter ones (Arcalís's 195 m at El Serrat, a town underpass) are
 * ridden and stay in the graph.
 */
export const LONG_TUNNEL_M = 1_000;

/**
 * Two consecutive nodes further apart than this are a mapping error or a
 * ferry line, not a road: the way holding them is left out rather than
 * bridged.
 */
export const MAX_NODE_GAP_M = 1_000;

const isTunnel = (tags: OsmTags) => (tags.tunnel ?? 'no') !== 'no';
const isRoundabout = (tags: OsmTags) => tags.junction === 'roundabout' || tags.junction === 'circular';

/**
 * Headings are read this far into a road from a junction: the first node
 * after a junction is often a kerb or a lane split metres away, whose
 * direction says nothing about where the road goes.
 */
export const HEADING_REACH_M = 40;

/** The heading from the first point towards the point {@link HEADING_REACH_M} along; null when all coincide. */
function headingInto(points: readonly LatLon[]): number | null {
  const first = points[0];
  if (!first) return null;
  let along = 0;
  let target: LatLon | undefined;
  for (let i = 1; i < points.length; i++) {
    along += greatCircleM(points[i - 1] as LatLon, points[i] as LatLon);
    if (!isSamePoint(first, points[i] as LatLon)) target = points[i];
    if (along >= HEADING_REACH_M && target) break;
  }
  return target ? initialBearing(first, target) : null;
}

/** A way's points, or null when a node is missing or two nodes lie implausibly far apart. */
function wayPoints(way: OsmWay, extract: OsmExtract): { ids: number[]; points: LatLon[] } | null {
  const ids: number[] = [];
  const points: LatLon[] = [];
  for (const id of way.nodes) {
    if (id === ids.at(-1)) continue;
    const node = extract.nodes.get(id);
    if (!node) return null;
    const point = { lat: node.lat, lon: node.lon };
    const previous = points.at(-1);
    if (previous && greatCircleM(previous, point) > MAX_NODE_GAP_M) return null;
    ids.push(id);
    points.push(point);
  }
  return ids.length >= 2 ? { ids, points } : null;
}

function lengthOf(points: readonly LatLon[]): number {
  let length = 0;
  for (let i = 1; i < points.length; i++)
    length += greatCircleM(points[i - 1] as LatLon, points[i] as LatLon);
  return length;
}

/** A way cut at its junctions: one future edge. */
interface Piece {
  readonly way: OsmWay;
  readonly ids: readonly number[];
  readonly points: readonly LatLon[];
  readonly lengthM: number;
}

/**
 * The graph of `extract`'s ways (all taken as rideable). Edges are numbered
 * in way id order and along each way, so the same extract always gives the
 * same graph whatever the order of its ways. Left out: ways with a missing
 * node or a gap over {@link MAX_NODE_GAP_M}, tunnels of {@link LONG_TUNNEL_M}
 * or more, the pieces inside a contracted junction (a small roundabout's
 * ring, a junction's short links: see {@link junctionClusters}), and edges
 * that begin and end at the same junction (a loop with no way on).
 */
export function buildRoadGraph(extract: OsmExtract): RoadGraph {
  const ways = [...extract.ways].sort((a, b) => a.id - b.id);
  const drawn: { way: OsmWay; ids: number[]; points: LatLon[] }[] = [];
  const nodePoint = new Map<number, LatLon>();
  for (const way of ways) {
    const resolved = wayPoints(way, extract);
    if (!resolved) continue;
    if (isTunnel(way.tags) && lengthOf(resolved.points) >= LONG_TUNNEL_M) continue;
    drawn.push({ way, ...resolved });
    resolved.ids.forEach((id, k) => nodePoint.set(id, resolved.points[k] as LatLon));
  }

  // A node is a junction where a way ends or where ways share it.
  const uses = new Map<number, number>();
  for (const { ids } of drawn) for (const id of ids) uses.set(id, (uses.get(id) ?? 0) + 1);
  const pieces: Piece[] = [];
  const links: number[][] = [...gapLinks(drawn, uses)];
  for (const { way, ids, points } of drawn) {
    // A roundabout, or any small closed way (a turning circle, a junction drawn as a ring).
    const ring = isRoundabout(way.tags) || ids[0] === ids.at(-1);
    if (ring) links.push(ids);
    const last = ids.length - 1;
    let start = 0;
    for (let k = 1; k <= last; k++) {
      if (k !== last && (uses.get(ids[k] as number) ?? 0) < 2) continue;
      const piece = { way, ids: ids.slice(start, k + 1), points: points.slice(start, k + 1), lengthM: 0 };
      const lengthM = lengthOf(piece.points);
      pieces.push({ ...piece, lengthM });
      if (!ring && lengthM < SHORT_PIECE_M) links.push([ids[start] as number, ids[k] as number]);
      start = k;
    }
  }
  const { clusterOf, middle } = junctionClusters(links, (id) => nodePoint.get(id) as LatLon);

  const edges: RoadEdge[] = [];
  const at = new Map<number, number[]>();
  const points = new Map<number, LatLon>(middle);
  const inner = new Map<number, InnerPiece[]>();
  const nodePoints = new Map<number, LatLon>();
  for (const [id, cluster] of clusterOf) {
    nodePoints.set(id, nodePoint.get(id) as LatLon);
    if (!inner.has(cluster)) inner.set(cluster, []);
  }
  for (const { way, ids, points: piecePoints, lengthM } of pieces) {
    const fromNode = ids[0] as number;
    const toNode = ids.at(-1) as number;
    const from = clusterOf.get(fromNode) ?? fromNode;
    const to = clusterOf.get(toNode) ?? toNode;
    if (from === to) {
      if (from < 0) inner.get(from)?.push({ a: fromNode, b: toNode, points: piecePoints, lengthM });
      continue;
    }
    if (!points.has(from)) points.set(from, piecePoints[0] as LatLon);
    if (!points.has(to)) points.set(to, piecePoints.at(-1) as LatLon);
    const index = edges.length;
    edges.push({
      index,
      wayId: way.id,
      from,
      to,
      fromNode,
      toNode,
      points: piecePoints,
      lengthM,
      ...bicycleDirections(way.tags),
      kind: roadKind(way.tags),
      tunnel: isTunnel(way.tags),
      headingFrom: headingInto(piecePoints),
      headingTo: headingInto(piecePoints.toReversed()),
    });
    for (const id of [from, to]) {
      const list = at.get(id);
      if (list) list.push(index);
      else at.set(id, [index]);
    }
  }
  return { edges, at, points, inner, nodePoints };
}
