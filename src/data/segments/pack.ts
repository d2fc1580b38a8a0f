import { closeSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import KDBush from 'kdbush';
import { foldName } from '../names.ts';
import { SegmentCatalogError, SegmentFeatureSchema, segmentToFeature } from './geojson.ts';
import {
  align8,
  BYTES,
  HEADER_BYTES,
  PACKED_FORMAT_VERSION,
  PACKED_MAGIC,
  SECTIONS,
  type SectionName,
} from './packed-format.ts';
import type { Segment } from './types.ts';

/** A typed array that doubles when full, so a catalog can stream in without knowing its size. */
class Growable<T extends Float64Array | Uint32Array> {
  private array: T;
  private readonly make: (size: number) => T;
  length = 0;

  constructor(make: (size: number) => T) {
    this.make = make;
    this.array = make(1024);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }

  get(i: number): number {
    return this.array[i] ?? Number.NaN;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.array.buffer, 0, this.length * this.array.BYTES_PER_ELEMENT);
  }
}

const f64 = () => new Growable((n) => new Float64Array(n));
const u32 = () => new Growable((n) => new Uint32Array(n));

/** Most problems an error lists before saying how many more there are. */
const MAX_LISTED_PROBLEMS = 50;

export interface PackOptions {
  /**
   * Check every segment against the catalog schema (the GeoJSON rules). The
   * import turns it off only for segments it has just validated as GeoJSON.
   */
  readonly validate?: boolean;
}

export interface PackReport {
  readonly path: string;
  readonly segments: number;
  readonly points: number;
  readonly bytes: number;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Validates `segments` and writes them as a packed index (`packed-format.ts`)
 * to `path`, through a temporary file and a rename so a server never reads a
 * half-written index. Segments stream in one at a time (only their columns
 * are kept), so a generator can feed a catalog of millions without holding
 * them as objects. Every problem is reported at once, as the GeoJSON loader
 * does; nothing is written when there is one.
 */
export function writePackedCatalog(
  path: string,
  segments: Iterable<Segment>,
  options: PackOptions = {},
): PackReport {
  const validate = options.validate ?? true;
  const ranks = f64();
  const distances = f64();
  const grades = f64();
  const gains = f64();
  const stringRefs = u32();
  const aliasOffsets = u32();
  const aliasRefs = u32();
  const pointOffsets = u32();
  const polylineCrcs = u32();
  const points = f64();
  const starts = f64();
  const strings = new Map<string, number>();
  const stringList: string[] = [];
  const ids: string[] = [];
  const keys = new Map<string, number[]>();
  const problems: string[] = [];
  const seen = new Map<string, number>();

  const intern = (text: string): number => {
    let n = strings.get(text);
    if (n === undefined) {
      n = stringList.length;
      strings.set(text, n);
      stringList.push(text);
    }
    return n;
  };

  aliasOffsets.push(0);
  pointOffsets.push(0);
  let position = 0;
  for (const segment of segments) {
    const index = ids.length;
    const label = `segment ${position} (id "${segment.id}")`;
    position += 1;
    if (validate) {
      const parsed = SegmentFeatureSchema.safeParse(segmentToFeature(segment));
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          problems.push(`${label} ${issue.path.map(String).join('.')}: ${issue.message}`);
        continue;
      }
    }
    const first = seen.get(segment.id);
    if (first !== undefined) {
      problems.push(`${label}: duplicate id, already used by segment ${first}`);
      continue;
    }
    seen.set(segment.id, position - 1);
    if (problems.length > 0) continue; // keep checking, but stop building: nothing will be written
    ids.push(segment.id);
    ranks.push(segment.popularityRank);
    distances.push(segment.distanceM);
    grades.push(segment.averageGradePct);
    gains.push(segment.elevationGainM);
    for (const text of [segment.id, segment.name, segment.countryCode, segment.source, segment.license])
      stringRefs.push(intern(text));
    stringRefs.push(intern(optionalFieldsText(segment)));
    for (const alias of segment.aliases) aliasRefs.push(intern(alias));
    aliasOffsets.push(aliasRefs.length);
    for (const key of new Set([segment.name, ...segment.aliases].map(foldName))) {
      if (key === '') continue;
      const list = keys.get(key);
      if (list === undefined) keys.set(key, [index]);
      else list.push(index);
    }
    const from = points.length;
    for (const { lon, lat } of segment.polyline) {
      points.push(lon);
      points.push(lat);
    }
    polylineCrcs.push(crc32(points.bytes().subarray(from * 8)));
    pointOffsets.push(points.length / 2);
    const start = segment.polyline[0];
    starts.push(start?.lon ?? Number.NaN);
    starts.push(start?.lat ?? Number.NaN);
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    if (problems.length > listed.length) listed.push(`… and ${problems.length - listed.length} more`);
    throw new SegmentCatalogError(listed, `Not packed: invalid segments for ${path}`);
  }
  const count = ids.length;

  // The same kd-tree the GeoJSON catalog builds, so both answer in the same order.
  const kdbush = new KDBush(Math.max(count, 1));
  for (let i = 0; i < count; i++) kdbush.add(starts.get(2 * i), starts.get(2 * i + 1));
  if (count === 0) kdbush.add(0, 0);
  kdbush.finish();

  const byRank = (a: number, b: number) =>
    ranks.get(a) - ranks.get(b) || byCodeUnits(ids[a] ?? '', ids[b] ?? '');
  const idOrder = Uint32Array.from(ids.keys()).sort((a, b) => byCodeUnits(ids[a] ?? '', ids[b] ?? ''));
  const sortedKeys = [...keys.keys()].sort(byCodeUnits);
  const nameKeys = u32();
  const nameKeyOffsets = u32();
  const namePostings = u32();
  nameKeyOffsets.push(0);
  for (const key of sortedKeys) {
    nameKeys.push(intern(key));
    for (const n of (keys.get(key) ?? []).sort(byRank)) namePostings.push(n);
    nameKeyOffsets.push(namePostings.length);
  }

  const encoder = new TextEncoder();
  const stringOffsets = u32();
  const encoded = stringList.map((text) => encoder.encode(text));
  stringOffsets.push(0);
  let total = 0;
  for (const bytes of encoded) {
    total += bytes.length;
    stringOffsets.push(total);
  }
  const stringBytes = new Uint8Array(total);
  encoded.reduce((at, bytes) => (stringBytes.set(bytes, at), at + bytes.length), 0);

  const bodies: Record<SectionName, Uint8Array> = {
    kdbush: new Uint8Array(kdbush.data),
    ranks: ranks.bytes(),
    distances: distances.bytes(),
    grades: grades.bytes(),
    gains: gains.bytes(),
    stringRefs: stringRefs.bytes(),
    aliasOffsets: aliasOffsets.bytes(),
    aliasRefs: aliasRefs.bytes(),
    stringOffsets: stringOffsets.bytes(),
    stringBytes,
    idOrder: new Uint8Array(idOrder.buffer),
    nameKeys: nameKeys.bytes(),
    nameKeyOffsets: nameKeyOffsets.bytes(),
    namePostings: namePostings.bytes(),
    pointOffsets: pointOffsets.bytes(),
    polylineCrcs: polylineCrcs.bytes(),
    points: points.bytes(),
  };
  return writeSections(path, bodies, { count, strings: stringList.length, points: points.length / 2 });
}

function writeSections(
  path: string,
  bodies: Record<SectionName, Uint8Array>,
  counts: { count: number; strings: number; points: number },
): PackReport {
  const header = new DataView(new ArrayBuffer(HEADER_BYTES));
  const table: [number, number][] = [];
  let offset = HEADER_BYTES;
  let hotCrc = 0;
  for (const [name, type] of SECTIONS) {
    const body = bodies[name];
    if (body.length % BYTES[type] !== 0) throw new Error(`Section ${name} is not whole ${type} values`);
    const start = align8(offset);
    // The reader checks kdbush alone, then ranks…polylineCrcs as one run, padding included.
    if (name !== 'kdbush' && name !== 'ranks' && name !== 'points')
      hotCrc = crc32(new Uint8Array(start - offset), hotCrc);
    table.push([start, body.length]);
    if (name !== 'points') hotCrc = crc32(body, hotCrc);
    offset = start + body.length;
  }
  const fileBytes = offset;
  new TextEncoder().encodeInto(PACKED_MAGIC, new Uint8Array(header.buffer, 0, 8));
  header.setUint32(8, PACKED_FORMAT_VERSION, true);
  header.setUint32(12, SECTIONS.length, true);
  header.setUint32(16, counts.count, true);
  header.setUint32(20, counts.strings, true);
  header.setUint32(24, hotCrc, true);
  header.setFloat64(32, fileBytes, true);
  header.setFloat64(40, counts.points, true);
  table.forEach(([at, length], i) => {
    header.setFloat64(48 + i * 16, at, true);
    header.setFloat64(56 + i * 16, length, true);
  });
  const crcAt = HEADER_BYTES - 8;
  header.setUint32(crcAt, crc32(new Uint8Array(header.buffer, 0, crcAt)), true);

  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, new Uint8Array(header.buffer), 0, HEADER_BYTES, 0);
    SECTIONS.forEach(([name], i) => {
      const body = bodies[name];
      const at = table[i]?.[0] ?? 0;
      for (let done = 0; done < body.length;)
        done += writeSync(fd, body, done, body.length - done, at + done);
    });
    // An empty last section may start past the last byte written; the length must match the header.
    ftruncateSync(fd, fileBytes);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
  return { path, segments: counts.count, points: counts.points, bytes: fileBytes };
}

/** A segment's optional fields, as the JSON of their GeoJSON properties ('' when it has none). */
function optionalFieldsText(segment: Segment): string {
  const { kind, max_grade_pct, ranked_by, osm_ways, osm_timestamp, osm_source, elevation_source } =
    segmentToFeature(segment).properties;
  const extras = { kind, max_grade_pct, ranked_by, osm_ways, osm_timestamp, osm_source, elevation_source };
  return Object.values(extras).every((value) => value === undefined) ? '' : JSON.stringify(extras);
}
