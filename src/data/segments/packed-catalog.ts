import { closeSync, fstatSync, openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { LRUCache } from 'lru-cache';
import type { LatLon } from '../../core/bearing.ts';
import { smallestSorted } from '../../core/smallest.ts';
import { foldName } from '../names.ts';
import { catalogDistanceM } from './segment-geometry.ts';
import { diskColumns, readExactly, type Section } from './packed-columns.ts';
import { radiusSearch } from './radius-search.ts';
import {
  BYTES,
  HEADER_BYTES,
  PACKED_FORMAT_VERSION,
  PACKED_MAGIC,
  packedCatalogError,
  SECTIONS,
  STRING_FIELDS,
  type SectionName,
} from './packed-format.ts';
import { optionalFieldsOf, type OptionalProperties } from './optional-fields.ts';
import type { NearbySegment, Segment, SegmentCatalog } from './types.ts';

/**
 * Materialised segments kept per catalog, so a segment a query touches again
 * is the same object (its legs stay cached in `segment-geometry.ts`, its wind
 * in `segment-window.ts`). 4,096 entries of ~22 points are about 9 MB of heap
 * (a point object is about 72 bytes), and cover every segment a burst of
 * `find_tailwind_segments` calls over one region returns.
 */
export const MATERIALISED_SEGMENTS = 4096;

/** How sparse the in-memory sample of ids is that narrows a lookup by id (see `idPosition`). */
const ID_SAMPLE_EVERY = 64;

/** Distinct countries, sources and licences kept decoded; any beyond are read each time. */
const SHARED_STRINGS = 1024;

/** A packed catalog keeps the index file open to read polylines on demand; `close` releases it. */
export interface PackedSegmentCatalog extends SegmentCatalog {
  close(): void;
}

/** Checks the header and section table; every failure names what is wrong, for the start-up error. */
function readHeader(fd: number, file: string): { view: DataView; sections: Map<SectionName, Section> } {
  const fail = (problem: string): never => {
    throw packedCatalogError(file, problem);
  };
  const size = fstatSync(fd).size;
  const head = new Uint8Array(HEADER_BYTES);
  const got = readExactly(fd, head, 0);
  const magic = new TextDecoder().decode(head.subarray(0, 8));
  if (got < 8 || magic !== PACKED_MAGIC)
    fail(`not a packed segment index (it does not start with "${PACKED_MAGIC}")`);
  const view = new DataView(head.buffer);
  const version = view.getUint32(8, true);
  if (version !== PACKED_FORMAT_VERSION)
    fail(
      `format version ${version}, but this server reads version ${PACKED_FORMAT_VERSION}; ` +
        're-pack it with this version (npm run segments:import -- --pack <catalog.geojson>)',
    );
  if (got < HEADER_BYTES) fail(`truncated: ${size} bytes, shorter than its ${HEADER_BYTES}-byte header`);
  const crcAt = HEADER_BYTES - 8;
  if (crc32(head.subarray(0, crcAt)) !== view.getUint32(crcAt, true)) fail('corrupt header (CRC mismatch)');
  if (view.getUint32(12, true) !== SECTIONS.length) fail('unexpected section count in the header');
  const fileBytes = view.getFloat64(32, true);
  if (size < fileBytes) fail(`truncated: ${size} bytes of the ${fileBytes} its header announces`);
  if (size > fileBytes)
    fail(`${size - fileBytes} unexpected bytes after the ${fileBytes} its header announces`);
  const sections = new Map<SectionName, Section>();
  let previousEnd = HEADER_BYTES;
  SECTIONS.forEach(([name, type], i) => {
    const offset = view.getFloat64(48 + i * 16, true);
    const length = view.getFloat64(56 + i * 16, true);
    if (offset % 8 !== 0 || offset < previousEnd || offset + length > fileBytes || length % BYTES[type] !== 0)
      fail(`section "${name}" lies outside the file or overlaps another`);
    sections.set(name, { offset, length });
    previousEnd = offset + length;
  });
  return { view, sections };
}

/**
 * Opens a packed segment index (`packed-format.ts`, written by
 * `writePackedCatalog`) as a {@link SegmentCatalog}. Start-up checks the
 * header, the section table, the CRC of the kd-tree and every column and
 * the cross-references, so a truncated, corrupt or mismatched file stops
 * the server with an error naming the file and the problem. Only the
 * kd-tree and the ranks, which every `near` scans, are then kept in memory
 * (about 28 MB for 1,000,000 segments); the other columns and the polylines
 * are read from the file when a query returns their segment
 * (`packed-columns.ts`), and a segment object is built only then. Answers
 * are the GeoJSON catalog's (`catalog.ts`): the same kd-tree, the same
 * distances and the same order.
 */
export function openPackedCatalog(file: string): PackedSegmentCatalog {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw packedCatalogError(file, `cannot be read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return readCatalog(fd, file);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function readCatalog(fd: number, file: string): PackedSegmentCatalog {
  const fail = (problem: string): never => {
    throw packedCatalogError(file, problem);
  };
  const { view, sections } = readHeader(fd, file);
  const count = view.getUint32(16, true);
  const stringCount = view.getUint32(20, true);
  const pointCount = view.getFloat64(40, true);
  const section = (name: SectionName): Section => sections.get(name) ?? fail(`no section "${name}"`);

  // kdbush needs its own ArrayBuffer starting at its header, so it is read on its own.
  const kd = section('kdbush');
  const kdData = new ArrayBuffer(kd.length);
  readExactly(fd, new Uint8Array(kdData), kd.offset);
  const ranksAt = section('ranks');
  if (ranksAt.length !== count * 8)
    fail(`section "ranks" has ${ranksAt.length} bytes where ${count * 8} were expected`);
  const ranks = new Float64Array(count);
  readExactly(fd, new Uint8Array(ranks.buffer), ranksAt.offset);
  // The CRC covers the kd-tree and every column (ranks…polylineCrcs, padding included); the columns
  // other than the ranks stay on disk, so they are checked a chunk at a time and not kept.
  const lastColumn = section('polylineCrcs');
  let crc = crc32(new Uint8Array(ranks.buffer), crc32(new Uint8Array(kdData)));
  const chunk = new Uint8Array(1 << 20);
  const columnsEnd = lastColumn.offset + lastColumn.length;
  for (let at = ranksAt.offset + ranksAt.length; at < columnsEnd; at += chunk.length) {
    const part = chunk.subarray(0, Math.min(chunk.length, columnsEnd - at));
    readExactly(fd, part, at);
    crc = crc32(part, crc);
  }
  if (crc !== view.getUint32(24, true))
    fail('corrupt (CRC mismatch in the index columns); re-pack it from its GeoJSON source');

  const expectBytes = (name: SectionName, expected: number) => {
    const { length } = section(name);
    if (length !== expected) fail(`section "${name}" has ${length} bytes where ${expected} were expected`);
    return length;
  };
  for (const name of ['distances', 'grades', 'gains'] as const) expectBytes(name, count * 8);
  for (const name of ['idOrder', 'polylineCrcs'] as const) expectBytes(name, count * 4);
  for (const name of ['aliasOffsets', 'pointOffsets'] as const) expectBytes(name, (count + 1) * 4);
  expectBytes('stringRefs', count * STRING_FIELDS * 4);
  expectBytes('stringOffsets', (stringCount + 1) * 4);
  const nameKeyCount = section('nameKeys').length / 4;
  expectBytes('nameKeyOffsets', (nameKeyCount + 1) * 4);
  const columns = diskColumns(fd, sections, fail);
  const points = section('points');

  // Cross-references a bad writer could break; the CRC only vouches for what was written.
  const lastOf = (name: SectionName) => columns.u32(name, section(name).length / 4 - 1);
  if (lastOf('stringOffsets') !== section('stringBytes').length)
    fail('string table does not match its offsets');
  if (lastOf('aliasOffsets') !== section('aliasRefs').length / 4)
    fail('alias table does not match its offsets');
  if (lastOf('nameKeyOffsets') !== section('namePostings').length / 4)
    fail('name index does not match its offsets');
  if (lastOf('pointOffsets') !== pointCount || points.length !== pointCount * 16)
    fail('polyline offsets do not match the points section');
  let index: KDBush;
  try {
    index = KDBush.from(kdData);
  } catch (error) {
    return fail(`spatial index unreadable: ${(error as Error).message}`);
  }
  if (index.numItems !== Math.max(count, 1))
    fail(`spatial index holds ${index.numItems} points, not ${count}`);
  const within = radiusSearch(index);

  const text = (n: number): string => {
    if (!(n < stringCount)) return fail(`string ${n} out of range`);
    const [from, to] = columns.span('stringOffsets', n);
    if (to < from) return fail(`string ${n} out of range`);
    return columns.text('stringBytes', from, to - from);
  };
  const field = (i: number, f: number) => text(columns.u32('stringRefs', i * STRING_FIELDS + f));
  /**
   * A country, source or licence: a few strings shared by most segments, so they are decoded once
   * (up to {@link SHARED_STRINGS}) rather than read again for every segment built.
   */
  const shared = new Map<number, string>();
  const sharedField = (i: number, f: number): string => {
    const n = columns.u32('stringRefs', i * STRING_FIELDS + f);
    let value = shared.get(n);
    if (value === undefined) {
      value = text(n);
      if (shared.size < SHARED_STRINGS) shared.set(n, value);
    }
    return value;
  };
  const idOf = (i: number) => field(i, 0);

  let open = true;
  const readPolyline = (i: number): LatLon[] => {
    const [from, to] = columns.span('pointOffsets', i);
    if (to - from < 2) fail(`segment ${i} has fewer than 2 points`);
    if (!open) fail('closed');
    const bytes = new Uint8Array((to - from) * 16);
    const got = readExactly(fd, bytes, points.offset + from * 16);
    if (got !== bytes.length || crc32(bytes) !== columns.u32('polylineCrcs', i))
      fail(`corrupt polyline of segment "${idOf(i)}" (CRC mismatch); re-pack it from its GeoJSON source`);
    const values = new Float64Array(bytes.buffer);
    const polyline: LatLon[] = [];
    for (let p = 0; p < values.length; p += 2)
      polyline.push({ lat: values[p + 1] ?? 0, lon: values[p] ?? 0 });
    return polyline;
  };

  const cache = new LRUCache<number, Segment>({ max: MATERIALISED_SEGMENTS });
  const segmentAt = (i: number): Segment => {
    let segment = cache.get(i);
    if (segment === undefined) {
      const aliases: string[] = [];
      const [first, end] = columns.span('aliasOffsets', i);
      for (let a = first; a < end; a++) aliases.push(text(columns.u32('aliasRefs', a)));
      segment = {
        id: idOf(i),
        name: field(i, 1),
        aliases,
        countryCode: sharedField(i, 2),
        polyline: readPolyline(i),
        distanceM: columns.f64('distances', i),
        averageGradePct: columns.f64('grades', i),
        elevationGainM: columns.f64('gains', i),
        popularityRank: ranks[i] ?? 0,
        source: sharedField(i, 3),
        license: sharedField(i, 4),
        ...optionalFields(field(i, 5)),
      };
      cache.set(i, segment);
    }
    return segment;
  };

  /**
   * Binary search over entries `low`…`high` of a u32 section of string numbers sorted by their text;
   * -1 when `wanted` is absent.
   */
  const search = (
    order: SectionName,
    stringOf: (n: number) => string,
    wanted: string,
    low = 0,
    high = section(order).length / 4 - 1,
  ): number => {
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const found = stringOf(columns.u32(order, mid));
      if (found === wanted) return mid;
      if (found < wanted) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  };

  /**
   * Every {@link ID_SAMPLE_EVERY}-th id in id order, decoded on the first `get`: a lookup then
   * searches these in memory and reads the file only within one block (about 6 steps instead of
   * 20 for 1,000,000 segments; the alert job looks up every watched segment). About 16,000 short
   * strings for 1,000,000 segments.
   */
  let idSample: readonly string[] | undefined;
  const sampledIds = (): readonly string[] =>
    (idSample ??= Array.from({ length: Math.ceil(count / ID_SAMPLE_EVERY) }, (_, k) =>
      idOf(columns.u32('idOrder', k * ID_SAMPLE_EVERY)),
    ));

  /** Where `id` is in `idOrder`, or -1. */
  const idPosition = (id: string): number => {
    const sample = sampledIds();
    // The last sampled id not after `id`: the block that would hold it.
    let low = 0;
    let high = sample.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if ((sample[mid] ?? '') <= id) low = mid + 1;
      else high = mid - 1;
    }
    const block = low - 1;
    if (block < 0) return -1;
    const first = block * ID_SAMPLE_EVERY;
    if (sample[block] === id) return first;
    return search('idOrder', idOf, id, first + 1, Math.min(first + ID_SAMPLE_EVERY, count) - 1);
  };

  const byRankThenDistance = (
    a: { i: number; distanceM: number },
    b: { i: number; distanceM: number },
  ): number => {
    // Same rule as catalog.ts (rank, distance, id); ids are read only to break a tie.
    const order = (ranks[a.i] ?? 0) - (ranks[b.i] ?? 0) || a.distanceM - b.distanceM;
    if (order) return order;
    const idA = idOf(a.i);
    const idB = idOf(b.i);
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  };

  return {
    size: count,
    get(id: string): Segment | undefined {
      const at = idPosition(id);
      return at < 0 ? undefined : segmentAt(columns.u32('idOrder', at));
    },
    near(point: LatLon, radiusM: number, limit: number): readonly NearbySegment[] {
      if (count === 0 || !(radiusM >= 0) || !(limit >= 1)) return [];
      const found = within.collect(point.lon, point.lat, radiusM / 1000);
      const slots = within.slots();
      const { ids, coords } = index;
      // Rank orders first, so nothing ranked after the limit-th best rank can be listed:
      // only the rest (about `limit` of thousands) need a distance.
      const worst = limitthRank(slots, found, (slot) => ranks[ids[slot] ?? 0] ?? 0, limit);
      const candidates: { i: number; distanceM: number }[] = [];
      for (let k = 0; k < found; k++) {
        const slot = slots[k] ?? 0;
        const i = ids[slot] ?? 0;
        if ((ranks[i] ?? 0) > worst) continue;
        const start = { lon: coords[2 * slot] ?? 0, lat: coords[2 * slot + 1] ?? 0 };
        candidates.push({ i, distanceM: Math.round(catalogDistanceM(point, start)) });
      }
      return smallestSorted(candidates, limit, byRankThenDistance).map(({ i, distanceM }) => ({
        segment: segmentAt(i),
        distanceM,
      }));
    },
    nearest(point: LatLon, limit: number): readonly NearbySegment[] {
      if (count === 0 || !(limit >= 1)) return [];
      return around(index, point.lon, point.lat, Math.floor(limit)).map((i) => {
        // A segment's start is the kd-tree's point for it (pack.ts), read here from its polyline.
        const segment = segmentAt(i);
        const start = segment.polyline[0] ?? { lat: 0, lon: 0 };
        return { segment, distanceM: Math.round(catalogDistanceM(point, start)) };
      });
    },
    findByName(query: string): readonly Segment[] {
      const key = foldName(query);
      if (key === '') return [];
      const at = search('nameKeys', text, key);
      if (at < 0) return [];
      const list: Segment[] = [];
      const [first, end] = columns.span('nameKeyOffsets', at);
      for (let p = first; p < end; p++) list.push(segmentAt(columns.u32('namePostings', p)));
      return list;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

/**
 * The `limit`-th smallest rank among the first `found` slots (Infinity when
 * there are fewer), what `smallestSorted(ranks, limit).at(-1)` gives,
 * keeping only the `limit` best so far rather than an array of them all.
 */
function limitthRank(
  slots: Uint32Array,
  found: number,
  rankOf: (slot: number) => number,
  limit: number,
): number {
  const size = Math.floor(limit);
  if (found < size) return Infinity;
  const best = new Float64Array(size).fill(Infinity);
  for (let k = 0; k < found; k++) {
    const rank = rankOf(slots[k] ?? 0);
    if (!(rank < (best[size - 1] ?? Infinity))) continue;
    let at = size - 1;
    while (at > 0 && (best[at - 1] ?? Infinity) > rank) {
      best[at] = best[at - 1] ?? Infinity;
      at--;
    }
    best[at] = rank;
  }
  return best[size - 1] ?? Infinity;
}

/**
 * A discovered segment's optional fields from their packed JSON (written by
 * `pack.ts` from the segment's own GeoJSON properties, checked when packed).
 */
function optionalFields(text: string): Partial<Segment> {
  return text === '' ? {} : optionalFieldsOf(JSON.parse(text) as OptionalProperties);
}
