import type { BBox } from '../../core/discovery/osm-types.ts';
import { inBBox } from '../../core/discovery/osm-selection.ts';
import { AREA_DEG, areaKey } from './area-grid.ts';

/**
 * How an extract is cut for a build: into the quarter-degree areas on-demand
 * discovery uses (what the store keeps, one row each), grouped into blocks
 * that are discovered as one. A block is read with a margin wider than the
 * longest climb, so a climb that crosses its edge is whole in it, and keeps
 * only the segments that start inside it, each filed under the area of its
 * start. The margin is work done twice (the neighbour reads it too), so
 * blocks are as large as memory allows: 2° square where roads are sparse,
 * halved where a block holds more road nodes than `maxNodes`, down to one
 * area. Pure.
 */

/** Wider than the longest climb a rider names as one (Port d'Envalira's long side is 27.5 km). */
export const BLOCK_MARGIN_M = 30_000;
/** A block holds at most this many road nodes of its own (its margin comes on top), unless it is one area. */
export const BLOCK_MAX_NODES = 1_000_000;
/** The largest block, in areas per side: 8 × 0.25° = 2°. */
export const BLOCK_MAX_AREAS = 8;

const METRES_PER_DEGREE = 111_195;
const COLUMNS = Math.round(360 / AREA_DEG);
const ROWS = Math.round(180 / AREA_DEG);

/** One number per area (row, column), for maps over millions of nodes without building key strings. */
export function areaNumber(lat: number, lon: number): number {
  const row = Math.min(ROWS / 2 - 1, Math.floor(lat / AREA_DEG));
  const col = ((((Math.floor(lon / AREA_DEG) + COLUMNS / 2) % COLUMNS) + COLUMNS) % COLUMNS) - COLUMNS / 2;
  return (row + ROWS / 2) * COLUMNS + (col + COLUMNS / 2);
}

function rowCol(number: number): { row: number; col: number } {
  return {
    row: Math.floor(number / COLUMNS) - ROWS / 2,
    col: (number % COLUMNS) - COLUMNS / 2,
  };
}

export interface BuildBlock {
  /** Position in the build's order (row by row, south to north, west to east). */
  readonly index: number;
  /** The block's own edges: segments starting here are kept. */
  readonly core: BBox;
  /** The core with the margin: roads with a node here are read. */
  readonly read: BBox;
  /** The areas of the core that hold roads, in key order: each gets a store row. */
  readonly areaKeys: readonly string[];
  /** Road nodes in the core. */
  readonly nodes: number;
}

/** The core widened by `marginM`, wrapping across the antimeridian and stopping at the poles. */
export function withMargin(core: BBox, marginM: number): BBox {
  const dLat = marginM / METRES_PER_DEGREE;
  const south = Math.max(-90, core.south - dLat);
  const north = Math.min(90, core.north + dLat);
  const widest = Math.min(89, Math.max(Math.abs(south), Math.abs(north)));
  const dLon = Math.min(180, dLat / Math.cos((widest * Math.PI) / 180));
  if (core.east - core.west + 2 * dLon >= 360) return { south, west: -180, north, east: 180 };
  const wrap = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  return { south, west: wrap(core.west - dLon), north, east: wrap(core.east + dLon) };
}

/**
 * Blocks over the areas that hold roads (`nodesPerArea`: area number → road
 * nodes), in a fixed order, so every run of one extract cuts it the same way.
 */
export function planBlocks(
  nodesPerArea: ReadonlyMap<number, number>,
  options: { maxNodes?: number; maxAreas?: number; marginM?: number } = {},
): BuildBlock[] {
  const maxNodes = options.maxNodes ?? BLOCK_MAX_NODES;
  const maxAreas = options.maxAreas ?? BLOCK_MAX_AREAS;
  const marginM = options.marginM ?? BLOCK_MARGIN_M;
  const cells = new Map<
    string,
    { row: number; col: number; areas: { row: number; col: number; n: number }[] }
  >();
  for (const [number, n] of nodesPerArea) {
    if (n <= 0) continue;
    const { row, col } = rowCol(number);
    const top = { row: Math.floor(row / maxAreas) * maxAreas, col: Math.floor(col / maxAreas) * maxAreas };
    const key = `${top.row}/${top.col}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { ...top, areas: [] }));
    cell.areas.push({ row, col, n });
  }
  const blocks: Omit<BuildBlock, 'index'>[] = [];
  const split = (
    row: number,
    col: number,
    size: number,
    areas: { row: number; col: number; n: number }[],
  ) => {
    const nodes = areas.reduce((sum, a) => sum + a.n, 0);
    if (nodes > maxNodes && size > 1) {
      const half = size / 2;
      for (const [dr, dc] of [
        [0, 0],
        [0, half],
        [half, 0],
        [half, half],
      ] as const) {
        const part = areas.filter(
          (a) => a.row >= row + dr && a.row < row + dr + half && a.col >= col + dc && a.col < col + dc + half,
        );
        if (part.length > 0) split(row + dr, col + dc, half, part);
      }
      return;
    }
    const core = {
      south: row * AREA_DEG,
      west: col * AREA_DEG,
      north: (row + size) * AREA_DEG,
      east: (col + size) * AREA_DEG,
    };
    const areaKeys = areas.map((a) => areaKey(a.row, a.col)).sort();
    blocks.push({ core, read: withMargin(core, marginM), areaKeys, nodes });
  };
  for (const cell of cells.values()) split(cell.row, cell.col, maxAreas, cell.areas);
  blocks.sort((a, b) => a.core.south - b.core.south || a.core.west - b.core.west);
  return blocks.map((block, index) => ({ index, ...block }));
}

/**
 * Which blocks read a point: an index from area to the blocks whose read box
 * touches it, then the exact test. Only areas that hold roads are indexed.
 */
export function blockFinder(
  blocks: readonly BuildBlock[],
  nodesPerArea: ReadonlyMap<number, number>,
): (lat: number, lon: number) => readonly number[] {
  const byArea = new Map<number, number[]>();
  for (const block of blocks) {
    const { read } = block;
    const rows = [Math.floor(read.south / AREA_DEG), Math.floor(Math.min(read.north, 89.999) / AREA_DEG)];
    const firstCol = Math.floor(read.west / AREA_DEG);
    let lastCol = Math.floor(read.east / AREA_DEG);
    if (lastCol < firstCol) lastCol += COLUMNS;
    for (let row = rows[0] as number; row <= (rows[1] as number); row++) {
      for (let c = firstCol; c <= lastCol; c++) {
        const col = ((((c + COLUMNS / 2) % COLUMNS) + COLUMNS) % COLUMNS) - COLUMNS / 2;
        const number = (row + ROWS / 2) * COLUMNS + (col + COLUMNS / 2);
        if (!nodesPerArea.has(number)) continue;
        let list = byArea.get(number);
        if (!list) byArea.set(number, (list = []));
        list.push(block.index);
      }
    }
  }
  const none: readonly number[] = [];
  return (lat, lon) => {
    const candidates = byArea.get(areaNumber(lat, lon));
    if (!candidates) return none;
    return candidates.filter((index) => inBBox(lat, lon, (blocks[index] as BuildBlock).read));
  };
}

/** Whether a point lies in a box, its southern and western edges in, its northern and eastern out: one area per point. */
export function startsIn(point: { lat: number; lon: number }, bbox: BBox): boolean {
  const inLon =
    bbox.west <= bbox.east
      ? point.lon >= bbox.west && point.lon < bbox.east
      : point.lon >= bbox.west || point.lon < bbox.east;
  return point.lat >= bbox.south && point.lat < bbox.north && inLon;
}

/** The key of the area a point lies in. */
export function areaKeyOf(point: { lat: number; lon: number }): string {
  const { row, col } = rowCol(areaNumber(point.lat, point.lon));
  return areaKey(row, col);
}
