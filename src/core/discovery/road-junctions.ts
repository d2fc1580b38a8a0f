import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { OsmWay } from './osm-types.ts';
import type { RoadGraph } from './road-graph.ts';
import { roadKind } from './road-kind.ts';

/**
 * Junctions as a rider passes them: a roundabout, or a junction drawn lane
 * by lane, is one junction crossed on its own pieces of road; a road drawn
 * with a gap before its own continuation is joined across it. Pure.
 */

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

/** A piece of road inside a contracted junction, between two of its nodes. */
export interface InnerPiece {
  readonly a: number;
  readonly b: number;
  /** Points from node `a` to node `b`. */
  readonly points: readonly LatLon[];
  readonly lengthM: number;
}

/**
 * Junctions that a rider passes as one: the nodes of a small roundabout's
 * ring, and junctions joined by a piece of road shorter than
 * {@link SHORT_PIECE_M} (the lane splits, slip roads and short links of a
 * junction drawn in detail). Each such group spanning at most
 * {@link MAX_JUNCTION_SPAN_M} becomes one junction, with a negative id (never
 * an OSM node id) and the middle of its nodes as its point.
 */
export function junctionClusters(
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
export function gapLinks(
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
