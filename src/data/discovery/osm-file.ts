import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { OSMTransform } from 'osm-pbf-parser-node';
import { SaxesParser } from 'saxes';
import type {
  BBox,
  OsmExtract,
  OsmMember,
  OsmNode,
  OsmRelation,
  OsmTags,
  OsmWay,
} from '../../core/discovery/osm-types.ts';
import { inBBox, selectedAs } from '../../core/discovery/osm-selection.ts';

/**
 * Reads an OpenStreetMap file (`.osm.pbf`, `.osm`, `.osm.gz`) into the
 * extract discovery works on, offline. Two streaming passes: the first keeps
 * the rideable ways, the named points and the bicycle routes and notes which
 * nodes the ways use; the second keeps only those nodes' coordinates. Memory
 * thus grows with the roads kept, not with the file: a country's nodes are
 * mostly buildings and paths, and holding every node's coordinates (16 bytes
 * each and its id) would take gigabytes for Germany. The format is told by
 * the first bytes (gzip magic, `<`, else PBF), not by the name.
 */

export type Format = 'pbf' | 'xml' | 'xml.gz';

/** One element of either format, as both readers hand it on. */
export type Item =
  | {
      readonly type: 'node';
      readonly id: number;
      readonly lat: number;
      readonly lon: number;
      readonly tags?: OsmTags | undefined;
    }
  | {
      readonly type: 'way';
      readonly id: number;
      readonly refs: readonly number[];
      readonly tags?: OsmTags | undefined;
    }
  | {
      readonly type: 'relation';
      readonly id: number;
      readonly members: readonly OsmMember[];
      readonly tags?: OsmTags | undefined;
    };

/** What a file says about itself besides its elements. */
export interface FileFacts {
  bbox: BBox | null;
  /** Milliseconds since 1970; 0 when unknown. */
  newest: number;
  /** The file says its elements are sorted by type, then id (PBF `Sort.Type_then_ID`). */
  sorted?: boolean;
  /** Bytes of the file read so far by the pass under way (for progress reports). */
  bytesRead?: number;
}

/**
 * The rideable roads, their nodes, the named points and the bicycle routes
 * of the file at `path`, within `bbox` when given: a way is kept when one of
 * its nodes is inside (all its nodes come with it, so a road is not cut at
 * the edge), a named point when it is inside, a route when one of its
 * members was kept. `timestamp` is the newest element's for XML (every
 * element carries one), the PBF header's replication time for PBF (element
 * times would cost the parser's metadata decoding, about 15 % more time),
 * else null. Throws an `Error` naming the path when the file is missing,
 * unreadable or not a whole OSM file.
 */
export async function readOsmFile(path: string, bbox?: BBox): Promise<OsmExtract> {
  try {
    return await readChecked(path, bbox);
  } catch (error) {
    const reason = error instanceof Error ? describe(error) : String(error);
    throw new Error(`Cannot read the OSM file ${path}: ${reason}.`, { cause: error });
  }
}

export function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return (error.message.split('\n')[0] ?? 'unknown error').replace(/\.$/, '');
}

async function readChecked(path: string, bbox: BBox | undefined): Promise<OsmExtract> {
  const format = await sniff(path);
  const facts: FileFacts = { bbox: null, newest: 0 };

  // Pass 1: ways, relations, named points; the ids of the nodes the ways use.
  const ways: OsmWay[] = [];
  const relations: OsmRelation[] = [];
  const named = new Map<number, OsmNode>();
  const wanted = new GrowableIds();
  for await (const batch of items(path, format, facts, true)) {
    for (const item of batch) {
      const kept = selectedAs(item.type, item.tags);
      if (kept === null || item.tags === undefined) continue;
      if (item.type === 'way') {
        ways.push({ id: item.id, nodes: item.refs, tags: item.tags });
        for (const ref of item.refs) wanted.push(ref);
      } else if (item.type === 'node') {
        if (!bbox || inBBox(item.lat, item.lon, bbox)) {
          const { id, lat, lon, tags } = item;
          named.set(id, { id, lat, lon, tags });
        }
      } else {
        relations.push({ id: item.id, members: item.members, tags: item.tags });
      }
    }
  }

  // Pass 2: the coordinates of those nodes only.
  const coords = new NodeCoords(wanted.sortedUnique());
  if (coords.size > 0) {
    for await (const batch of items(path, format, facts, false)) {
      for (const item of batch) if (item.type === 'node') coords.set(item.id, item.lat, item.lon);
    }
  }

  const nodes = new Map<number, OsmNode>();
  const inside = (id: number) => {
    const point = coords.get(id);
    return point !== undefined && bbox !== undefined && inBBox(point.lat, point.lon, bbox);
  };
  const keptWays = bbox ? ways.filter((way) => way.nodes.some(inside)) : ways;
  for (const way of keptWays) {
    for (const id of way.nodes) {
      const point = coords.get(id);
      if (point) nodes.set(id, { id, ...point });
    }
  }
  for (const [id, node] of named) nodes.set(id, node);
  const keptWayIds = new Set(keptWays.map((way) => way.id));
  const keptRelations = bbox
    ? relations.filter((relation) =>
        relation.members.some((m) =>
          m.type === 'way' ? keptWayIds.has(m.ref) : m.type === 'node' && nodes.has(m.ref),
        ),
      )
    : relations;

  return {
    bbox: bbox ?? facts.bbox ?? boundsOf(nodes.values()),
    nodes,
    ways: keptWays,
    relations: keptRelations,
    timestamp: facts.newest > 0 ? new Date(facts.newest).toISOString() : null,
  };
}

function boundsOf(nodes: Iterable<OsmNode>): BBox {
  let [south, west, north, east] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const node of nodes) {
    south = Math.min(south, node.lat);
    north = Math.max(north, node.lat);
    west = Math.min(west, node.lon);
    east = Math.max(east, node.lon);
  }
  return south === Infinity ? { south: 0, west: 0, north: 0, east: 0 } : { south, west, north, east };
}

/** Node ids in a typed array: 8 bytes each, where a `Set` would take several times that and stops at 2^24 entries. */
class GrowableIds {
  private data = new Float64Array(1 << 16);
  private length = 0;

  push(id: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = id;
  }

  sortedUnique(): Float64Array {
    const sorted = this.data.subarray(0, this.length).sort();
    let out = 0;
    sorted.forEach((id, k) => {
      if (k === 0 || id !== sorted[k - 1]) sorted[out++] = id;
    });
    return sorted.slice(0, out);
  }
}

/** Coordinates of the wanted nodes, in typed arrays parallel to their sorted ids (found by binary search). */
class NodeCoords {
  private readonly ids: Float64Array;
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;

  constructor(ids: Float64Array) {
    this.ids = ids;
    this.lat = new Float64Array(ids.length).fill(Number.NaN);
    this.lon = new Float64Array(ids.length).fill(Number.NaN);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Records a node's coordinates when it is wanted. */
  set(id: number, lat: number, lon: number): void {
    const at = this.indexOf(id);
    if (at < 0) return;
    this.lat[at] = lat;
    this.lon[at] = lon;
  }

  /** A wanted node's coordinates; undefined when not wanted or not in the file. */
  get(id: number): { lat: number; lon: number } | undefined {
    const at = this.indexOf(id);
    const lat = this.lat[at] ?? Number.NaN;
    const lon = this.lon[at] ?? Number.NaN;
    return Number.isNaN(lat) ? undefined : { lat, lon };
  }

  private indexOf(id: number): number {
    let low = 0;
    let high = this.ids.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = this.ids[mid] ?? Number.NaN;
      if (value === id) return mid;
      if (value < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

export async function sniff(path: string): Promise<Format> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead === 0) throw new Error('the file is empty');
    if (head[0] === 0x1f && head[1] === 0x8b) return 'xml.gz';
    const text = head
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    return text.startsWith('<') ? 'xml' : 'pbf';
  } finally {
    await handle.close();
  }
}

/** Elements in batches (one per chunk read): one await per batch, not per element, halves the read time. */
export function items(
  path: string,
  format: Format,
  facts: FileFacts,
  firstPass: boolean,
): AsyncGenerator<Item[]> {
  return format === 'pbf' ? pbfItems(path, facts, firstPass) : xmlItems(path, format === 'xml.gz', facts);
}

/** The PBF header's fields this reader uses (osm-pbf-parser-node yields it untyped). */
interface PbfHeader {
  readonly bbox?: { left: number; right: number; top: number; bottom: number };
  readonly osmosis_replication_timestamp?: number;
  readonly optional_features?: readonly string[];
}

/**
 * The parser's own `createOSMStream` pipes the file without passing its
 * errors on (a missing file would be an uncaught exception) and accepts a
 * truncated file silently; this wiring forwards read errors and, at the end,
 * refuses a file whose last block is cut short (bytes left in the parser's
 * buffer) or that has no header block at all.
 */
async function* pbfItems(path: string, facts: FileFacts, firstPass: boolean): AsyncGenerator<Item[]> {
  // The second pass reads coordinates only; tags would be decoded for nothing.
  const transform = new OSMTransform({ withTags: firstPass, withInfo: false });
  const source = createReadStream(path);
  facts.bytesRead = 0;
  source.on('data', (chunk) => (facts.bytesRead = (facts.bytesRead ?? 0) + chunk.length));
  source.on('error', (error) => transform.destroy(error));
  source.pipe(transform);
  let header = false;
  for await (const chunk of transform as AsyncIterable<(Item | PbfHeader)[]>) {
    // The parser's elements already have this reader's shape (type, id, lat/lon, refs, members, tags).
    const elements = chunk.filter((raw): raw is Item => {
      if ('type' in raw) return true;
      header = true;
      if (firstPass) readPbfHeader(raw, facts);
      return false;
    });
    yield elements;
  }
  if (!header) throw new Error('not an OSM PBF file (no header block)');
  const state = transform as unknown as { buffer?: Buffer | null; offset?: number };
  if (state.buffer && typeof state.offset === 'number' && state.buffer.length > state.offset) {
    throw new Error('the file is truncated (its last block is cut short)');
  }
}

function readPbfHeader(header: PbfHeader, facts: FileFacts): void {
  const box = header.bbox;
  if (box && box.top > box.bottom) {
    facts.bbox = {
      south: box.bottom * 1e-9,
      west: box.left * 1e-9,
      north: box.top * 1e-9,
      east: box.right * 1e-9,
    };
  }
  if (header.optional_features?.includes('Sort.Type_then_ID')) facts.sorted = true;
  const seconds = header.osmosis_replication_timestamp ?? 0;
  if (seconds > 0) facts.newest = seconds * 1000;
}

/**
 * OSM XML through saxes, chunk by chunk: the elements a chunk completes are
 * handed on before the next is read, so memory stays at one chunk whatever
 * the file's size. Gzipped files are inflated on the way (node:zlib).
 */
async function* xmlItems(path: string, gzipped: boolean, facts: FileFacts): AsyncGenerator<Item[]> {
  const parser = new SaxesParser();
  const ready: Item[] = [];
  let sawRoot = false;
  let current:
    | { type: 'node'; id: number; lat: number; lon: number; tags: Record<string, string> }
    | { type: 'way'; id: number; refs: number[]; tags: Record<string, string> }
    | { type: 'relation'; id: number; members: OsmMember[]; tags: Record<string, string> }
    | null = null;
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'osm':
        sawRoot = true;
        break;
      case 'bounds':
        facts.bbox = {
          south: Number(a.minlat),
          west: Number(a.minlon),
          north: Number(a.maxlat),
          east: Number(a.maxlon),
        };
        break;
      case 'node':
        current = { type: 'node', id: Number(a.id), lat: Number(a.lat), lon: Number(a.lon), tags: {} };
        stamp(a.timestamp, facts);
        break;
      case 'way':
        current = { type: 'way', id: Number(a.id), refs: [], tags: {} };
        stamp(a.timestamp, facts);
        break;
      case 'relation':
        current = { type: 'relation', id: Number(a.id), members: [], tags: {} };
        stamp(a.timestamp, facts);
        break;
      case 'tag':
        if (current && a.k !== undefined && a.v !== undefined) current.tags[a.k] = a.v;
        break;
      case 'nd':
        if (current?.type === 'way') current.refs.push(Number(a.ref));
        break;
      case 'member':
        if (
          current?.type === 'relation' &&
          (a.type === 'node' || a.type === 'way' || a.type === 'relation')
        ) {
          current.members.push({ type: a.type, ref: Number(a.ref), role: a.role ?? '' });
        }
        break;
    }
  });
  parser.on('closetag', (tag) => {
    if (current && tag.name === current.type) {
      const tags = Object.keys(current.tags).length > 0 ? current.tags : undefined;
      ready.push({ ...current, tags });
      current = null;
    }
  });
  const file: Readable = createReadStream(path);
  facts.bytesRead = 0;
  file.on('data', (chunk) => (facts.bytesRead = (facts.bytesRead ?? 0) + chunk.length));
  const stream = gzipped ? file.pipe(createGunzip()) : file;
  if (gzipped) file.on('error', (error) => stream.destroy(error));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parser.write(decoder.decode(chunk, { stream: true }));
    yield ready.splice(0);
  }
  parser.write(decoder.decode());
  parser.close();
  yield ready.splice(0);
  if (!sawRoot) throw new Error('not an OSM XML file (no <osm> element)');
}

function stamp(timestamp: string | undefined, facts: FileFacts): void {
  if (timestamp === undefined) return;
  const ms = Date.parse(timestamp);
  if (ms > facts.newest) facts.newest = ms;
}
