import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  rmSync,
  statSync,
  writeSync,
  openSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { BBox, OsmNode, OsmRelation, OsmTags } from '../../core/discovery/osm-types.ts';
import { selectedAs } from '../../core/discovery/osm-selection.ts';
import { areaNumber, blockFinder, planBlocks, type BuildBlock } from './build-blocks.ts';
import { NodeIdCollector, NodeLocations } from './node-index.ts';
import { describe, items, sniff, type FileFacts } from './osm-file.ts';

/**
 * An OpenStreetMap file of any size read into build blocks on disk, with
 * memory bounded by the node index, not by the file:
 *
 * 1. one streaming pass keeps the rideable ways (written to a spill file as
 *    they come, with their node ids), the named points (spilled too) and the
 *    bicycle routes (kept: a country has a few thousand), and collects the
 *    ids of the nodes the ways use;
 * 2. a second pass keeps only those nodes' locations, in typed arrays
 *    (node-index.ts), and stops as soon as every one is found;
 * 3. the blocks are planned from the road nodes per area (build-blocks.ts);
 * 4. the spill is read back once and each way, with its nodes' locations,
 *    is appended to the file of every block whose read box it touches (JSON
 *    lines; a block's file is what one worker reads).
 *
 * The node index is dropped after step 4: discovery itself holds one block
 * per worker at a time.
 */

/** What one line of a block file holds: a way with its nodes' locations, or a named point. */
type BlockLine =
  | readonly ['w', number, readonly number[], readonly (number | null)[], OsmTags]
  | readonly ['p', number, number, number, OsmTags];

export interface BlockRead {
  readonly block: BuildBlock;
  /** The block's file (JSON lines). */
  readonly file: string;
  /** Indexes into `OsmBlocks.relations` of the bicycle routes with a way in the block. */
  readonly relations: readonly number[];
}

export interface OsmBlocks {
  readonly blocks: readonly BlockRead[];
  readonly relations: readonly OsmRelation[];
  readonly timestamp: string | null;
  readonly counts: { readonly ways: number; readonly roadNodes: number; readonly namedPoints: number };
  /** Removes the block files. */
  remove(): void;
}

export type ReadStage = 'ways' | 'nodes' | 'blocks';

export interface ReadProgress {
  readonly stage: ReadStage;
  /** Bytes of the file read in this stage (for `blocks`: spilled ways written out), and its total. */
  readonly done: number;
  readonly total: number;
}

/** Bytes buffered per block before they go to its file; all blocks together stay under `FLUSH_ALL`. */
const FLUSH_BLOCK = 256 * 1024;
const FLUSH_ALL = 64 * 1024 * 1024;

/**
 * Reads `path` into blocks under a new folder in `tmpDir`. Throws an `Error`
 * naming the path when the file is missing, unreadable or not a whole OSM file.
 */
export async function readOsmBlocks(
  path: string,
  options: {
    readonly tmpDir: string;
    readonly maxNodes?: number;
    readonly maxAreas?: number;
    readonly marginM?: number;
    readonly onProgress?: (progress: ReadProgress) => void;
  },
): Promise<OsmBlocks> {
  const dir = mkdtempSync(join(options.tmpDir, 'wos-blocks-'));
  try {
    return await readInto(path, dir, options);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const reason = error instanceof Error ? describe(error) : String(error);
    throw new Error(`Cannot read the OSM file ${path}: ${reason}.`, { cause: error });
  }
}

async function readInto(
  path: string,
  dir: string,
  options: Parameters<typeof readOsmBlocks>[1],
): Promise<OsmBlocks> {
  const format = await sniff(path);
  const total = statSync(path).size;
  const facts: FileFacts = { bbox: null, newest: 0 };
  const report = options.onProgress ?? (() => undefined);

  // Pass 1: ways and named points to the spill, bicycle routes kept, node ids collected.
  const spillPath = join(dir, 'spill.jsonl');
  const spill = createWriteStream(spillPath);
  const relations: OsmRelation[] = [];
  const wanted = new NodeIdCollector();
  let ways = 0;
  let namedPoints = 0;
  for await (const batch of items(path, format, facts, true)) {
    let text = '';
    for (const item of batch) {
      const kept = selectedAs(item.type, item.tags);
      if (kept === null || item.tags === undefined) continue;
      if (item.type === 'way') {
        for (const ref of item.refs) wanted.push(ref);
        text += `${JSON.stringify(['w', item.id, item.refs, item.tags])}\n`;
        ways++;
      } else if (item.type === 'node') {
        text += `${JSON.stringify(['p', item.id, item.lat, item.lon, item.tags])}\n`;
        namedPoints++;
      } else {
        relations.push({ id: item.id, members: item.members, tags: item.tags });
      }
    }
    if (text !== '' && !spill.write(text)) await once(spill, 'drain');
    report({ stage: 'ways', done: facts.bytesRead ?? 0, total });
  }
  spill.end();
  await once(spill, 'finish');

  // Pass 2: the locations of the nodes the ways use, nothing else; done once every one is found.
  const locations = new NodeLocations(wanted.sorted());
  if (locations.size > 0) {
    for await (const batch of items(path, format, facts, false)) {
      for (const item of batch) if (item.type === 'node') locations.set(item.id, item.lat, item.lon);
      report({ stage: 'nodes', done: facts.bytesRead ?? 0, total });
      if (locations.located === locations.size) break;
    }
  }

  // The plan: road nodes per area, then blocks.
  const perArea = new Map<number, number>();
  locations.forEachLocated((lat, lon) => {
    const number = areaNumber(lat, lon);
    perArea.set(number, (perArea.get(number) ?? 0) + 1);
  });
  const blocks = planBlocks(perArea, options);
  const find = blockFinder(blocks, perArea);

  // Pass 3: the spill, each way with its locations, into the files of the blocks that read it.
  const routesByWay = new Map<number, number[]>();
  relations.forEach((relation, index) => {
    for (const member of relation.members) {
      if (member.type !== 'way') continue;
      const list = routesByWay.get(member.ref);
      if (list) list.push(index);
      else routesByWay.set(member.ref, [index]);
    }
  });
  const out = new BlockFiles(dir, blocks.length);
  const routes = blocks.map(() => new Set<number>());
  const spillBytes = statSync(spillPath).size;
  let spilled = 0;
  const lines = createInterface({ input: createReadStream(spillPath), crlfDelay: Infinity });
  for await (const line of lines) {
    spilled += line.length + 1;
    const entry = JSON.parse(line) as
      ['w', number, number[], OsmTags] | ['p', number, number, number, OsmTags];
    if (entry[0] === 'p') {
      const [, , lat, lon] = entry;
      const targets = find(lat, lon);
      if (targets.length > 0) out.add(targets, `${line}\n`);
      continue;
    }
    const [, id, refs, tags] = entry;
    const coords: (number | null)[] = [];
    const targets = new Set<number>();
    for (const ref of refs) {
      const at = locations.indexOf(ref);
      if (at < 0) {
        coords.push(null, null);
        continue;
      }
      const lat = locations.latAt(at);
      const lon = locations.lonAt(at);
      coords.push(lat, lon);
      for (const index of find(lat, lon)) targets.add(index);
    }
    if (targets.size === 0) continue;
    const text = `${JSON.stringify(['w', id, refs, coords, tags] satisfies BlockLine)}\n`;
    out.add(targets, text);
    for (const index of routesByWay.get(id) ?? []) for (const target of targets) routes[target]?.add(index);
    if ((spilled & 0xfff) < line.length) report({ stage: 'blocks', done: spilled, total: spillBytes });
  }
  out.close();
  report({ stage: 'blocks', done: spillBytes, total: spillBytes });
  rmSync(spillPath, { force: true });

  return {
    blocks: blocks.map((block) => ({
      block,
      file: out.path(block.index),
      relations: [...(routes[block.index] ?? [])].sort((a, b) => a - b),
    })),
    relations,
    timestamp: facts.newest > 0 ? new Date(facts.newest).toISOString() : null,
    counts: { ways, roadNodes: locations.located, namedPoints },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Appends lines to one file per block, buffered, with one descriptor open at a time. */
class BlockFiles {
  private readonly buffers: string[][];
  private readonly sizes: number[];
  private buffered = 0;
  private readonly dir: string;

  constructor(dir: string, count: number) {
    this.dir = dir;
    this.buffers = Array.from({ length: count }, () => []);
    this.sizes = Array.from({ length: count }, () => 0);
  }

  path(index: number): string {
    return join(this.dir, `block-${index}.jsonl`);
  }

  add(targets: Iterable<number>, text: string): void {
    for (const index of targets) {
      (this.buffers[index] as string[]).push(text);
      this.sizes[index] = (this.sizes[index] as number) + text.length;
      this.buffered += text.length;
      if ((this.sizes[index] as number) >= FLUSH_BLOCK) this.flush(index);
    }
    if (this.buffered >= FLUSH_ALL) for (let i = 0; i < this.buffers.length; i++) this.flush(i);
  }

  close(): void {
    for (let i = 0; i < this.buffers.length; i++) this.flush(i, true);
  }

  private flush(index: number, always = false): void {
    const lines = this.buffers[index] as string[];
    if (lines.length === 0 && !always) return;
    const fd = openSync(this.path(index), 'a');
    try {
      writeSync(fd, lines.join(''));
    } finally {
      closeSync(fd);
    }
    this.buffered -= this.sizes[index] as number;
    this.buffers[index] = [];
    this.sizes[index] = 0;
  }
}

/** A block file as the extract discovery reads, its bicycle routes given. */
export function blockExtract(
  text: string,
  read: BBox,
  relations: readonly OsmRelation[],
  timestamp: string | null,
): {
  nodes: Map<number, OsmNode>;
  ways: { id: number; nodes: number[]; tags: OsmTags }[];
  bbox: BBox;
  relations: readonly OsmRelation[];
  timestamp: string | null;
} {
  const nodes = new Map<number, OsmNode>();
  const named: OsmNode[] = [];
  const ways: { id: number; nodes: number[]; tags: OsmTags }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const line = JSON.parse(text.slice(start, end)) as BlockLine;
      if (line[0] === 'w') {
        const [, id, refs, coords, tags] = line;
        refs.forEach((ref, k) => {
          const lat = coords[2 * k];
          const lon = coords[2 * k + 1];
          if (lat !== null && lat !== undefined && lon !== null && lon !== undefined && !nodes.has(ref))
            nodes.set(ref, { id: ref, lat, lon });
        });
        ways.push({ id, nodes: [...refs], tags });
      } else {
        const [, id, lat, lon, tags] = line;
        named.push({ id, lat, lon, tags });
      }
    }
    start = end + 1;
  }
  // A named point that is also a road node keeps its tags, as the whole-file reader does.
  for (const node of named) nodes.set(node.id, node);
  return { nodes, ways, bbox: read, relations, timestamp };
}
