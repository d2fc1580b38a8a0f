import { initialBearing, isSamePoint, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { OsmExtract, OsmTags, OsmWay } from './osm-types.ts';

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

/** What kind of road an edge is, as the continuation rule reads it. */
export interface RoadKind {
  /** The first road number of `ref` (the one a sign shows first); null when there is none. */
  readonly ref: string | null;
  readonly name: string | null;
  /** The `highway` value without `_link`. */
  readonly highway: string;
  /** Class rank, higher for bigger roads ({@link CLASS_RANK}). */
  readonly rank: number;
  /** A `_link` ramp: a short connector that takes the class of the road it serves. */
  readonly link: boolean;
}

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

/** A piece of road inside a contracted junction, between two of its nodes. */
export interface InnerPiece {
  readonly a: number;
  readonly b: number;
  /** Points from node `a` to node `b`. */
  readonly points: readonly LatLon[];
  readonly lengthM: number;
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
 * Class ranks: the continuation rule keeps a rider on a road of the same or a
 * higher class. Residential streets and cycleways share a rank: both are the
 * small roads a village is crossed on.
 */
export const CLASS_RANK: Readonly<Record<string, number>> = {
  trunk: 7,
  primary: 6,
  secondary: 5,
  tertiary: 4,
  unclassified: 3,
  residential: 2,
  cycleway: 2,
  service: 1,
  track: 1,
};

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

/**
 * A piece of road between two junctions shorter than this is part of one
 * junction drawn in detail (a lane split, a slip road, a short link between
 * the carriageways of a dual road), not a road of its own.
 */
export const SHORT_PIECE_M = 40;

/**
 * A roundabout, or a group of junctions joined by short pieces, spanning at
 * most this is contracted into one junction; a bigger one (a town's ring
 * road tagged as a roundabout, a long chain of short pieces in a street grid)
 * stays as drawn.
 */
export const MAX_JUNCTION_SPAN_M = 150;

/** What a way is called and numbered: its first road number (a `ref` without a digit is none) and its name. */
export function roadKind(tags: OsmTags): RoadKind {
  const first = tags.ref?.split(';')[0]?.trim() ?? '';
  const highway = (tags.highway ?? '').replace(/_link$/, '');
  return {
    ref: /\d/.test(first) ? first : null,
    name: tags.name?.trim() || null,
    highway,
    rank: CLASS_RANK[highway] ?? 0,
    link: (tags.highway ?? '').endsWith('_link'),
  };
}

/**
 * Which ways a bicycle may ride, from the way's tags: `oneway=yes|true|1`
 * forward only, `-1|reverse` backward only, a roundabout forward only;
 * `oneway:bicycle=no` or a contraflow cycle lane (`cycleway=opposite…`)
 * lifts the restriction for bicycles.
 */
export function bicycleDirections(tags: OsmTags): { forward: boolean; backward: boolean } {
  const both = { forward: true, backward: true };
  if (tags['oneway:bicycle'] === 'no' || (tags.cycleway ?? '').startsWith('opposite')) return both;
  const oneway = tags['oneway:bicycle'] ?? tags.oneway;
  if (oneway === 'yes' || oneway === 'true' || oneway === '1') return { forward: true, backward: false };
  if (oneway === '-1' || oneway === 'reverse') return { forward: false, backward: true };
  if (oneway === undefined && (tags.junction === 'roundabout' || tags.junction === 'circular')) {
    return { forward: true, backward: false };
  }
  return both;
}

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

/**
 * Junctions that a rider passes as one: the nodes of a small roundabout's
 * ring, and junctions joined by a piece of road shorter than
 * {@link SHORT_PIECE_M} (the lane splits, slip roads and short links of a
 * junction drawn in detail). Each such group spanning at most
 * {@link MAX_JUNCTION_SPAN_M} becomes one junction, with a negative id (never
 * an OSM node id) and the middle of its nodes as its point.
 */
function junctionClusters(
  links: readonly (readonly number[])[],
  pointOf: (id: number) => LatLon,
): { clusterOf: Map<number, number>; middle: Map<number, LatLon> } {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    parent.set(id, root);
    return root;
  };
  for (const ids of links) {
    for (const id of ids) if (!parent.has(id)) parent.set(id, id);
    const first = find(ids[0] as number);
    for (const id of ids.slice(1)) {
      const root = find(id);
      if (root !== first) parent.set(root, first);
    }
  }
  const members = new Map<number, number[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    const list = members.get(root);
    if (list) list.push(id);
    else members.set(root, [id]);
  }
  const clusterOf = new Map<number, number>();
  const middle = new Map<number, LatLon>();
  for (const ids of members.values()) {
    if (ids.length < 2) continue;
    const points = ids.map(pointOf);
    let span = 0;
    for (const a of points) for (const b of points) span = Math.max(span, greatCircleM(a, b));
    if (span > MAX_JUNCTION_SPAN_M) continue;
    const cluster = -Math.min(...ids);
    for (const id of ids) clusterOf.set(id, cluster);
    middle.set(cluster, {
      lat: points.reduce((sum, p) => sum + p.lat, 0) / points.length,
      lon: points.reduce((sum, p) => sum + p.lon, 0) / points.length,
    });
  }
  return { clusterOf, middle };
}

/**
 * A road that stops short of its own continuation (same number or name) by
 * less than this has a gap in the drawing, not a dead end: its end is joined
 * to the nearest node of the continuing way.
 */
export const GAP_M = 50;

/** Pairs of nodes to join across drawing gaps (see {@link GAP_M}), found through a grid of ~GAP_M cells. */
function gapLinks(
  drawn: readonly { way: OsmWay; ids: number[]; points: LatLon[] }[],
  uses: ReadonlyMap<number, number>,
): number[][] {
  const cellDeg = GAP_M / 111_000;
  const key = (p: LatLon) => `${Math.floor(p.lat / cellDeg)}:${Math.floor(p.lon / cellDeg)}`;
  const grid = new Map<string, { id: number; point: LatLon; road: number }[]>();
  drawn.forEach(({ ids, points }, road) =>
    ids.forEach((id, k) => {
      const point = points[k] as LatLon;
      const list = grid.get(key(point));
      const entry = { id, point, road };
      if (list) list.push(entry);
      else grid.set(key(point), [entry]);
    }),
  );
  const sameRoad = (a: OsmWay, b: OsmWay) => {
    const [x, y] = [roadKind(a.tags), roadKind(b.tags)];
    return (x.ref !== null && x.ref === y.ref) || (x.name !== null && x.name === y.name);
  };
  const links: number[][] = [];
  drawn.forEach(({ way, ids, points }, road) => {
    for (const k of [0, ids.length - 1]) {
      const id = ids[k] as number;
      if ((uses.get(id) ?? 0) > 1) continue;
      const point = points[k] as LatLon;
      const [row, col] = [Math.floor(point.lat / cellDeg), Math.floor(point.lon / cellDeg)];
      let best: { id: number; d: number } | null = null;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          for (const other of grid.get(`${row + dr}:${col + dc}`) ?? []) {
            if (other.road === road || !sameRoad(way, (drawn[other.road] as { way: OsmWay }).way)) continue;
            const d = greatCircleM(point, other.point);
            if (d <= GAP_M && (best === null || d < best.d)) best = { id: other.id, d };
          }
        }
      }
      if (best) links.push([id, best.id]);
    }
  });
  return links;
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

/**
 * The way across contracted junction `junction` from node `from` to node
 * `to`: the shortest run of its inner pieces (a roundabout's ring, a
 * junction's short links), or the straight line between the two nodes when
 * no piece joins them (a gap in the drawing). Points from `from` to `to`.
 */
export function acrossJunction(graph: RoadGraph, junction: number, from: number, to: number): LatLon[] {
  const start = graph.nodePoints.get(from);
  const end = graph.nodePoints.get(to);
  if (!start || !end) return [];
  if (from === to) return [start];
  const pieces = graph.inner.get(junction) ?? [];
  // Dijkstra over a handful of nodes: a linear scan for the nearest open node is enough.
  const best = new Map<number, { m: number; via: { piece: InnerPiece; reversed: boolean } | null }>([
    [from, { m: 0, via: null }],
  ]);
  const done = new Set<number>();
  for (;;) {
    let node: number | null = null;
    for (const [id, { m }] of best)
      if (!done.has(id) && (node === null || m < (best.get(node)?.m ?? Infinity))) node = id;
    if (node === null || node === to) break;
    done.add(node);
    const here = best.get(node)?.m ?? 0;
    for (const piece of pieces) {
      const next = piece.a === node ? piece.b : piece.b === node ? piece.a : null;
      if (next === null || done.has(next)) continue;
      const m = here + piece.lengthM;
      if (m < (best.get(next)?.m ?? Infinity))
        best.set(next, { m, via: { piece, reversed: piece.b === node } });
    }
  }
  if (!best.has(to)) return [start, end];
  const runs: LatLon[][] = [];
  for (let node = to; node !== from;) {
    const via = best.get(node)?.via;
    if (!via) break;
    runs.push(via.reversed ? via.piece.points.toReversed() : [...via.piece.points]);
    node = via.reversed ? via.piece.b : via.piece.a;
  }
  const line: LatLon[] = [start];
  for (const run of runs.reverse()) line.push(...run.slice(1));
  return line;
}
