import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { LRUCache } from 'lru-cache';
import type { LatLon } from '../../core/bearing.ts';
import { smallestSorted } from '../../core/smallest.ts';
import { foldName } from '../names.ts';
import { catalogDistanceM } from './catalog-distance.ts';
import {
  BYTES,
  HEADER_BYTES,
  PACKED_FORMAT_VERSION,
  PACKED_MAGIC,
  PackedCatalogError,
  SECTIONS,
  STRING_FIELDS,
  type SectionName,
} from './packed-format.ts';
import type { NearbySegment, Segment, SegmentCatalog } from './types.ts';

/**
 * Materialised segments kept per catalog, so a segment a query touches again
 * is the same object (its legs stay cached in `segment-geometry.ts`). 4,096
 * entries of ~20 points are a few MB, and cover every segment a burst of
 * `find_tailwind_segments` calls over one region returns.
 */
export const MATERIALISED_SEGMENTS = 4096;

/** A packed catalog keeps the index file open to read polylines on demand; `close` releases it. */
export interface PackedSegmentCatalog extends SegmentCatalog {
  close(): void;
}

interface Section {
  readonly offset: number;
  readonly length: number;
}

function readExactly(fd: number, into: Uint8Array, position: number): number {
  let done = 0;
  while (done < into.length) {
    const read = readSync(fd, into, done, into.length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}

/** Checks the header and section table; every failure names what is wrong, for the start-up error. */
function readHeader(fd: number, file: string): { view: DataView; sections: Map<SectionName, Section> } {
  const fail = (problem: string): never => {
    throw new PackedCatalogError(file, problem);
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
 * `writePackedCatalog`) as a {@link SegmentCatalog}. Start-up reads the
 * columns (everything but the polylines) into memory and checks their CRC,
 * the section table and the cross-references, so a truncated, corrupt or
 * mismatched file stops the server with an error naming the file and the
 * problem. Nothing is parsed per segment: a segment object is built only
 * when a query returns it, with its polyline read from the file then.
 * Answers are the GeoJSON catalog's (`catalog.ts`): the same kd-tree, the
 * same distances and the same order.
 */
export function openPackedCatalog(file: string): PackedSegmentCatalog {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new PackedCatalogError(file, `cannot be read: ${(error as Error).message}`, { cause: error });
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
    throw new PackedCatalogError(file, problem);
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
  const first = section('ranks');
  const last = section('polylineCrcs');
  const hot = new Uint8Array(last.offset + last.length - first.offset);
  readExactly(fd, hot, first.offset);
  const expectedCrc = view.getUint32(24, true);
  if (crc32(hot, crc32(new Uint8Array(kdData))) !== expectedCrc)
    fail('corrupt (CRC mismatch in the index columns); re-pack it from its GeoJSON source');

  /** A section's place in `hot`; `expectedBytes` (when known) is checked against the table. */
  const slice = (name: SectionName, expectedBytes?: number) => {
    const { offset, length } = section(name);
    if (expectedBytes !== undefined && length !== expectedBytes)
      fail(`section "${name}" has ${length} bytes where ${expectedBytes} were expected`);
    return { start: offset - first.offset, length };
  };
  const f64 = (name: SectionName) => {
    const { start, length } = slice(name, count * 8);
    return new Float64Array(hot.buffer, start, length / 8);
  };
  const u32 = (name: SectionName, entries?: number) => {
    const { start, length } = slice(name, entries === undefined ? undefined : entries * 4);
    return new Uint32Array(hot.buffer, start, length / 4);
  };
  const ranks = f64('ranks');
  const distances = f64('distances');
  const grades = f64('grades');
  const gains = f64('gains');
  const stringRefs = u32('stringRefs', count * STRING_FIELDS);
  const aliasOffsets = u32('aliasOffsets', count + 1);
  const aliasRefs = u32('aliasRefs');
  const stringOffsets = u32('stringOffsets', stringCount + 1);
  const bytesAt = slice('stringBytes');
  const stringBytes = Buffer.from(hot.buffer, bytesAt.start, bytesAt.length);
  const idOrder = u32('idOrder', count);
  const nameKeys = u32('nameKeys');
  const nameKeyOffsets = u32('nameKeyOffsets', nameKeys.length + 1);
  const namePostings = u32('namePostings');
  const pointOffsets = u32('pointOffsets', count + 1);
  const polylineCrcs = u32('polylineCrcs', count);
  const points = section('points');

  // Cross-references a bad writer could break; the CRC only vouches for what was written.
  if (stringOffsets.at(-1) !== stringBytes.length) fail('string table does not match its offsets');
  if (aliasOffsets.at(-1) !== aliasRefs.length) fail('alias table does not match its offsets');
  if (nameKeyOffsets.at(-1) !== namePostings.length) fail('name index does not match its offsets');
  if (pointOffsets.at(-1) !== pointCount || points.length !== pointCount * 16)
    fail('polyline offsets do not match the points section');
  let index: KDBush;
  try {
    index = KDBush.from(kdData);
  } catch (error) {
    return fail(`spatial index unreadable: ${(error as Error).message}`);
  }
  if (index.numItems !== Math.max(count, 1))
    fail(`spatial index holds ${index.numItems} points, not ${count}`);
  // kdbush keeps coordinates in tree order; this maps a segment number to its place there.
  const treeSlot = new Uint32Array(index.numItems);
  const { ids } = index;
  for (let slot = 0; slot < ids.length; slot++) treeSlot[ids[slot] ?? 0] = slot;

  const text = (n: number): string => {
    const from = stringOffsets[n];
    const to = stringOffsets[n + 1];
    if (from === undefined || to === undefined || to < from) return fail(`string ${n} out of range`);
    return stringBytes.toString('utf8', from, to);
  };
  const field = (i: number, f: number) => text(stringRefs[i * STRING_FIELDS + f] ?? stringCount);
  const idOf = (i: number) => field(i, 0);

  let open = true;
  const readPolyline = (i: number): LatLon[] => {
    const from = pointOffsets[i] ?? 0;
    const to = pointOffsets[i + 1] ?? 0;
    if (to - from < 2) fail(`segment ${i} has fewer than 2 points`);
    if (!open) fail('closed');
    const bytes = new Uint8Array((to - from) * 16);
    const got = readExactly(fd, bytes, points.offset + from * 16);
    if (got !== bytes.length || crc32(bytes) !== polylineCrcs[i])
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
      for (let a = aliasOffsets[i] ?? 0; a < (aliasOffsets[i + 1] ?? 0); a++)
        aliases.push(text(aliasRefs[a] ?? stringCount));
      segment = {
        id: idOf(i),
        name: field(i, 1),
        aliases,
        countryCode: field(i, 2),
        polyline: readPolyline(i),
        distanceM: distances[i] ?? 0,
        averageGradePct: grades[i] ?? 0,
        elevationGainM: gains[i] ?? 0,
        popularityRank: ranks[i] ?? 0,
        source: field(i, 3),
        license: field(i, 4),
      };
      cache.set(i, segment);
    }
    return segment;
  };

  /** Binary search over sorted string numbers; -1 when `wanted` is absent. */
  const search = (order: Uint32Array, stringOf: (n: number) => string, wanted: string): number => {
    let low = 0;
    let high = order.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const found = stringOf(order[mid] ?? 0);
      if (found === wanted) return mid;
      if (found < wanted) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  };

  /** Rounded metres from `point` to segment `i`'s start, read from the kd-tree (no polyline needed). */
  const distanceTo = (point: LatLon, i: number): number => {
    const slot = treeSlot[i] ?? 0;
    const start = { lon: index.coords[2 * slot] ?? 0, lat: index.coords[2 * slot + 1] ?? 0 };
    return Math.round(catalogDistanceM(point, start));
  };

  const byRankThenDistance = (
    a: { i: number; distanceM: number },
    b: { i: number; distanceM: number },
  ): number => {
    // Same rule as catalog.ts (rank, distance, id); ids are decoded only to break a tie.
    const order = (ranks[a.i] ?? 0) - (ranks[b.i] ?? 0) || a.distanceM - b.distanceM;
    if (order) return order;
    const idA = idOf(a.i);
    const idB = idOf(b.i);
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  };

  return {
    size: count,
    get(id: string): Segment | undefined {
      const at = search(idOrder, idOf, id);
      return at < 0 ? undefined : segmentAt(idOrder[at] ?? 0);
    },
    near(point: LatLon, radiusM: number, limit: number): readonly NearbySegment[] {
      if (count === 0 || !(radiusM >= 0) || !(limit >= 1)) return [];
      const found = around(index, point.lon, point.lat, Infinity, radiusM / 1000);
      // Rank orders first, so nothing ranked after the limit-th best rank can be listed:
      // only the rest (about `limit` of thousands) need a distance.
      const ranked = smallestSorted(
        found.map((i) => ranks[i] ?? 0),
        limit,
        (a, b) => a - b,
      );
      const worst = ranked.length < limit ? Infinity : (ranked.at(-1) ?? Infinity);
      const candidates = found
        .filter((i) => (ranks[i] ?? 0) <= worst)
        .map((i) => ({ i, distanceM: distanceTo(point, i) }));
      return smallestSorted(candidates, limit, byRankThenDistance).map(({ i, distanceM }) => ({
        segment: segmentAt(i),
        distanceM,
      }));
    },
    nearest(point: LatLon, limit: number): readonly NearbySegment[] {
      if (count === 0 || !(limit >= 1)) return [];
      return around(index, point.lon, point.lat, Math.floor(limit)).map((i) => ({
        segment: segmentAt(i),
        distanceM: distanceTo(point, i),
      }));
    },
    findByName(query: string): readonly Segment[] {
      const key = foldName(query);
      if (key === '') return [];
      const at = search(nameKeys, text, key);
      if (at < 0) return [];
      const list: Segment[] = [];
      for (let p = nameKeyOffsets[at] ?? 0; p < (nameKeyOffsets[at + 1] ?? 0); p++)
        list.push(segmentAt(namePostings[p] ?? 0));
      return list;
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
