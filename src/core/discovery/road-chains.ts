import { initialBearing, isSamePoint, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { OsmExtract, OsmTags, OsmWay } from './osm-types.ts';
import { isRideableRoad } from './rideable-way.ts';

/**
 * Rideable ways joined into the roads a rider follows. OSM cuts a road into
 * many ways (at every bridge, speed limit or name change); a climb is found
 * along the whole road, so the ways are joined again here. Pure.
 */

/** One road followed across the ways it is drawn with, in riding order. */
export interface RoadChain {
  /** The ref or name every way of the chain shares (see {@link roadIdentity}). */
  readonly key: string;
  /** The name most of its ways carry (the first such in chain order on a tie); null when none has one. */
  readonly name: string | null;
  /** The road number it follows; null for a chain joined by name. */
  readonly ref: string | null;
  readonly wayIds: readonly number[];
  readonly nodeIds: readonly number[];
  readonly points: readonly LatLon[];
}

/**
 * Two consecutive nodes further apart than this are a mapping error or a
 * ferry line, not a road: the way holding them is left out, so its chain
 * ends there instead of jumping across the gap.
 */
export const MAX_NODE_GAP_M = 1000;

/**
 * What a way follows: its first road number when it has one, else its name.
 * The number comes first because it survives the name changes a road goes
 * through (Andorra's CG-2 is unnamed for 89 ways and "Port d'Envalira" for
 * 24: joined by name, the pass road would break at every village). Of a
 * `ref` list (`CG3i4; CG-3`) the first is kept, by OSM convention the main
 * route; a ref without a digit (`FIXME`) is no road number. A way with
 * neither is not chained at all: unnamed, unnumbered ways are mostly links,
 * driveways and short connectors, and a climb on one could not be named to a
 * rider.
 */
export function roadIdentity(tags: OsmTags): { readonly ref: string | null; readonly name: string | null } {
  const first = tags.ref?.split(';')[0]?.trim() ?? '';
  const ref = /\d/.test(first) ? first : null;
  const name = tags.name?.trim() || null;
  return { ref, name };
}

/** A usable way: its nodes resolved, consecutive repeats dropped, its end headings known. */
interface Piece {
  readonly way: OsmWay;
  readonly group: string;
  readonly ids: readonly number[];
  readonly points: readonly LatLon[];
  readonly firstId: number;
  readonly lastId: number;
  /** Heading from the first node into the way; null when all its points coincide. */
  readonly outOfStart: number | null;
  /** Heading from the last node back into the way. */
  readonly outOfEnd: number | null;
}

/** One end of a piece at a node. */
interface End {
  readonly piece: Piece;
  readonly atStart: boolean;
}

/** Which end continues into which, both ways round. */
class Partners {
  private readonly atStart = new Map<Piece, End>();
  private readonly atEnd = new Map<Piece, End>();

  get(end: End): End | undefined {
    return (end.atStart ? this.atStart : this.atEnd).get(end.piece);
  }

  join(a: End, b: End): void {
    (a.atStart ? this.atStart : this.atEnd).set(a.piece, b);
    (b.atStart ? this.atStart : this.atEnd).set(b.piece, a);
  }
}

/**
 * Joins the rideable ways of `extract` into chains, each following one ref
 * or name (see {@link roadIdentity}):
 *
 * - Ways meet only at shared end nodes; a way may run either way round and is
 *   reversed to fit.
 * - Where more ends of the same road meet at a node than two, the ends are
 *   paired straightest first (smallest change of heading, then lowest way
 *   ids), so a T junction continues the through road and the branch becomes
 *   its own chain, whichever way is read first.
 * - Left out: ways `isRideableRoad` refuses, ways with a node missing from the
 *   extract, ways with a gap over {@link MAX_NODE_GAP_M}, closed ways and
 *   roundabouts (a loop has no start and end to climb between; a road that
 *   meets a roundabout ends there), and ways that revisit a node or cross
 *   themselves.
 * - A chain never visits a node twice nor crosses itself: a way that would
 *   make it do so is cut off and starts the next chain (cut, not skipped, so
 *   no road is lost; a spiral road over its own bridge becomes two chains).
 *
 * Output is sorted by key, then by first way id; the same extract always
 * gives the same chains whatever the order of its ways.
 */
export function chainRoads(extract: OsmExtract): RoadChain[] {
  const pieces = usablePieces(extract).sort((a, b) => a.way.id - b.way.id);
  const groups = new Map<string, Piece[]>();
  for (const piece of pieces) {
    const list = groups.get(piece.group);
    if (list) list.push(piece);
    else groups.set(piece.group, [piece]);
  }
  const partners = new Partners();
  for (const members of groups.values()) pairEnds(members, partners);

  const chains: RoadChain[] = [];
  const visited = new Set<Piece>();
  const walkFrom = (start: Piece, forward: boolean) => {
    let builder = new ChainBuilder(start, forward);
    visited.add(start);
    let tail: End = { piece: start, atStart: !forward };
    for (;;) {
      const next = partners.get(tail);
      if (!next || visited.has(next.piece)) break;
      visited.add(next.piece);
      // The next piece runs forward when it is joined at its first node.
      if (!builder.append(next.piece, next.atStart)) {
        chains.push(builder.finish());
        builder = new ChainBuilder(next.piece, next.atStart);
      }
      tail = { piece: next.piece, atStart: !next.atStart };
    }
    chains.push(builder.finish());
  };
  for (const piece of pieces) {
    if (visited.has(piece)) continue;
    if (!partners.get({ piece, atStart: true })) walkFrom(piece, true);
    else if (!partners.get({ piece, atStart: false })) walkFrom(piece, false);
  }
  // What is left is paired at both ends all round: a ring of ways. Break it at its lowest way id.
  for (const piece of pieces) if (!visited.has(piece)) walkFrom(piece, true);

  return chains.sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : (a.wayIds[0] ?? 0) - (b.wayIds[0] ?? 0),
  );
}

/** The ways worth chaining, with their points; see {@link chainRoads} for what is left out. */
function usablePieces(extract: OsmExtract): Piece[] {
  const pieces: Piece[] = [];
  for (const way of extract.ways) {
    if (!isRideableRoad(way.tags)) continue;
    const junction = way.tags.junction;
    if (junction === 'roundabout' || junction === 'circular') continue;
    const { ref, name } = roadIdentity(way.tags);
    const group = ref !== null ? `r${ref}` : name !== null ? `n${name}` : null;
    if (group === null) continue;
    const ids: number[] = [];
    const points: LatLon[] = [];
    let usable = true;
    for (const id of way.nodes) {
      if (id === ids.at(-1)) continue;
      const node = extract.nodes.get(id);
      const point = node && { lat: node.lat, lon: node.lon };
      const previous = points.at(-1);
      if (!point || (previous && greatCircleM(previous, point) > MAX_NODE_GAP_M)) {
        usable = false;
        break;
      }
      ids.push(id);
      points.push(point);
    }
    const firstId = ids[0];
    const lastId = ids.at(-1);
    if (!usable || firstId === undefined || lastId === undefined || firstId === lastId) continue;
    const piece: Piece = {
      way,
      group,
      ids,
      points,
      firstId,
      lastId,
      outOfStart: outwardBearing(points),
      outOfEnd: outwardBearing(points.toReversed()),
    };
    // A way that revisits a node or crosses itself is no road to ride from end to end.
    if (!new ChainBuilder(piece, true).isClean()) continue;
    pieces.push(piece);
  }
  return pieces;
}

/**
 * Pairs the ends of one road's pieces at each node, straightest continuation
 * first, so each end continues into at most one other piece.
 */
function pairEnds(members: readonly Piece[], partners: Partners): void {
  const atNode = new Map<number, End[]>();
  for (const piece of members) {
    for (const end of [
      { node: piece.firstId, piece, atStart: true },
      { node: piece.lastId, piece, atStart: false },
    ]) {
      const list = atNode.get(end.node);
      if (list) list.push(end);
      else atNode.set(end.node, [end]);
    }
  }
  for (const ends of atNode.values()) {
    if (ends.length < 2) continue;
    const pairs: { a: End; b: End; turn: number; low: number; high: number }[] = [];
    ends.forEach((a, i) => {
      for (const b of ends.slice(i + 1)) {
        if (a.piece === b.piece) continue;
        const ba = a.atStart ? a.piece.outOfStart : a.piece.outOfEnd;
        const bb = b.atStart ? b.piece.outOfStart : b.piece.outOfEnd;
        // Two ends leaving the node in opposite directions continue straight: a turn of 0°.
        const turn = ba === null || bb === null ? 180 : 180 - angleBetween(ba, bb);
        const [idA, idB] = [a.piece.way.id, b.piece.way.id];
        pairs.push({ a, b, turn, low: Math.min(idA, idB), high: Math.max(idA, idB) });
      }
    });
    pairs.sort((x, y) => x.turn - y.turn || x.low - y.low || x.high - y.high);
    const taken = new Set<End>();
    for (const { a, b } of pairs) {
      if (taken.has(a) || taken.has(b)) continue;
      taken.add(a);
      taken.add(b);
      partners.join(a, b);
    }
  }
}

/** The heading from the first point to the first one apart from it; null when all coincide. */
function outwardBearing(points: readonly LatLon[]): number | null {
  const [from, ...rest] = points;
  if (!from) return null;
  const to = rest.find((point) => !isSamePoint(from, point));
  return to ? initialBearing(from, to) : null;
}

function angleBetween(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/**
 * Grid cell size in degrees for the self-crossing test, about 200 m: most
 * road segments are shorter, so a segment is tested against its
 * neighbourhood only (with 1 km cells a hairpin stack of a pass road put
 * hundreds of segments in one cell).
 */
const CELL_DEG = 0.002;

/** A segment in degrees, its longitudes unwrapped about the chain's first point. */
interface Segment {
  readonly aLat: number;
  readonly aLon: number;
  readonly bLat: number;
  readonly bLon: number;
}

/**
 * A chain under construction, refusing a piece that would revisit a node or
 * cross an earlier segment. Segments are kept in a coarse grid so the test
 * stays near linear for a road of thousands of nodes; longitudes are
 * unwrapped about the first point so a chain across the antimeridian is
 * tested as drawn.
 */
class ChainBuilder {
  private readonly key: string;
  private readonly ref: string | null;
  private readonly ways: OsmWay[] = [];
  private readonly nodeIds: number[];
  private readonly points: LatLon[];
  private readonly seen: Set<number>;
  private readonly segments: Segment[] = [];
  private readonly grid = new Map<number, Segment[]>();
  private readonly referenceLon: number;
  private readonly clean: boolean;

  constructor(first: Piece, forward: boolean) {
    const identity = roadIdentity(first.way.tags);
    this.ref = identity.ref;
    this.key = identity.ref ?? identity.name ?? '';
    const start = forward ? first.firstId : first.lastId;
    const point = (forward ? first.points[0] : first.points.at(-1)) ?? { lat: 0, lon: 0 };
    this.referenceLon = point.lon;
    this.nodeIds = [start];
    this.points = [point];
    this.seen = new Set([start]);
    this.clean = this.append(first, forward);
  }

  /** False when the first piece alone revisits a node or crosses itself. */
  isClean(): boolean {
    return this.clean;
  }

  /** Adds `piece` at the tail (it starts at the tail node); false, and nothing added, when it does not fit. */
  append(piece: Piece, forward: boolean): boolean {
    const ids = (forward ? piece.ids : piece.ids.toReversed()).slice(1);
    const points = forward ? piece.points : piece.points.toReversed();
    const fresh = new Set<number>();
    for (const id of ids) {
      if (this.seen.has(id) || fresh.has(id)) return false;
      fresh.add(id);
    }
    const added: { segment: Segment; cells: number[] }[] = [];
    let previous: LatLon | undefined;
    for (const point of points) {
      if (previous) {
        const [aLat, aLon] = this.unwrap(previous);
        const [bLat, bLon] = this.unwrap(point);
        const segment = { aLat, aLon, bLat, bLon };
        const cells = cellsOf(segment);
        if (cells.some((cell) => this.crossesIn(cell, segment))) {
          for (const undo of added.reverse()) for (const cell of undo.cells) this.grid.get(cell)?.pop();
          return false;
        }
        for (const cell of cells) {
          const list = this.grid.get(cell);
          if (list) list.push(segment);
          else this.grid.set(cell, [segment]);
        }
        added.push({ segment, cells });
      }
      previous = point;
    }
    for (const { segment } of added) this.segments.push(segment);
    for (const id of ids) this.seen.add(id);
    this.nodeIds.push(...ids);
    this.points.push(...points.slice(1));
    this.ways.push(piece.way);
    return true;
  }

  finish(): RoadChain {
    const names = this.ways.map((way) => roadIdentity(way.tags).name);
    const counts = new Map<string, number>();
    for (const own of names) if (own !== null) counts.set(own, (counts.get(own) ?? 0) + 1);
    const best = Math.max(0, ...counts.values());
    const name = names.find((own) => own !== null && counts.get(own) === best) ?? null;
    return {
      key: this.key,
      name,
      ref: this.ref,
      wayIds: this.ways.map((way) => way.id),
      nodeIds: this.nodeIds,
      points: this.points,
    };
  }

  private unwrap(point: LatLon): [number, number] {
    return [point.lat, point.lon - 360 * Math.round((point.lon - this.referenceLon) / 360)];
  }

  private crossesIn(cell: number, segment: Segment): boolean {
    for (const other of this.grid.get(cell) ?? []) if (properlyCross(segment, other)) return true;
    return false;
  }
}

/** Numeric cell keys (row × 10^6 + column, offset to stay positive): no string built per segment. */
function cellsOf(s: Segment): number[] {
  const cells: number[] = [];
  const y0 = Math.floor(Math.min(s.aLat, s.bLat) / CELL_DEG);
  const y1 = Math.floor(Math.max(s.aLat, s.bLat) / CELL_DEG);
  const x0 = Math.floor(Math.min(s.aLon, s.bLon) / CELL_DEG);
  const x1 = Math.floor(Math.max(s.aLon, s.bLon) / CELL_DEG);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) cells.push((y + 100_000) * 1_000_000 + x + 400_000);
  return cells;
}

/** Which side of the line p→q the point r lies on: -1, 0 (on it) or 1. */
function side(pLat: number, pLon: number, qLat: number, qLon: number, rLat: number, rLon: number): number {
  return Math.sign((qLat - pLat) * (rLon - pLon) - (qLon - pLon) * (rLat - pLat));
}

/**
 * True when two segments cross at a point inside both. Segments that only
 * touch (consecutive segments share an end) do not cross; at road scale
 * the plane in degrees is exact enough for a yes/no answer.
 */
function properlyCross(s: Segment, t: Segment): boolean {
  return (
    side(s.aLat, s.aLon, s.bLat, s.bLon, t.aLat, t.aLon) *
      side(s.aLat, s.aLon, s.bLat, s.bLon, t.bLat, t.bLon) <
      0 &&
    side(t.aLat, t.aLon, t.bLat, t.bLon, s.aLat, s.aLon) *
      side(t.aLat, t.aLon, t.bLat, t.bLon, s.bLat, s.bLon) <
      0
  );
}
