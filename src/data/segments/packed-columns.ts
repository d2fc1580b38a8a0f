import { readSync } from 'node:fs';
import { BYTES, SECTIONS, type SectionName } from './packed-format.ts';

/** Where a section lies in the file. */
export interface Section {
  readonly offset: number;
  readonly length: number;
}

/** Reads up to `into.length` bytes at `position`; fewer only at the end of the file. */
export function readExactly(fd: number, into: Uint8Array, position: number): number {
  let done = 0;
  while (done < into.length) {
    const read = readSync(fd, into, done, into.length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}

/**
 * A packed index's columns read from the file value by value, when a query
 * needs them, rather than held in memory: a query that returns ten segments
 * reads some two hundred bytes of them, and the operating system's page
 * cache (which is not the server's resident memory, and which it reclaims
 * under pressure) keeps the hot pages. Over 1,000,000 segments this keeps
 * about 150 MB of names, ids, figures and offsets out of the server's
 * resident set; the kd-tree and the ranks, which every `near` scans, stay
 * in memory (packed-catalog.ts). Every read goes through one scratch buffer
 * (queries are synchronous, so it is never shared) and is checked against
 * its section's bounds, so a bad offset fails with the file's name instead
 * of reading another section.
 */
export interface DiskColumns {
  /** Entry `index` of a u32 section. */
  u32(name: SectionName, index: number): number;
  /** Entries `index` and `index + 1` of a u32 section (an offsets table's span), as `[from, to]`. */
  span(name: SectionName, index: number): readonly [number, number];
  /** Entry `index` of an f64 section. */
  f64(name: SectionName, index: number): number;
  /** `length` bytes of a section from byte `start`, as UTF-8 text. */
  text(name: SectionName, start: number, length: number): string;
}

const TYPES = new Map<SectionName, string>(SECTIONS);

export function diskColumns(
  fd: number,
  sections: ReadonlyMap<SectionName, Section>,
  fail: (problem: string) => never,
): DiskColumns {
  let scratch = Buffer.allocUnsafe(4096);
  /** Reads into the start of `scratch` (no view object per read: a query makes dozens of reads). */
  const read = (name: SectionName, start: number, length: number): Buffer => {
    const section = sections.get(name) ?? fail(`no section "${name}"`);
    if (!(start >= 0 && length >= 0 && start + length <= section.length))
      fail(`a reference points outside section "${name}"`);
    if (length > scratch.length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
    let done = 0;
    while (done < length) {
      const got = readSync(fd, scratch, done, length - done, section.offset + start + done);
      if (got === 0) fail(`section "${name}" cannot be read`);
      done += got;
    }
    return scratch;
  };
  const width = (name: SectionName, type: 'u32' | 'f64') => {
    if (TYPES.get(name) !== type) throw new Error(`Section ${name} is not ${type}.`);
    return BYTES[type];
  };
  return {
    u32: (name, index) => read(name, index * width(name, 'u32'), 4).readUInt32LE(0),
    span(name, index) {
      const view = read(name, index * width(name, 'u32'), 8);
      return [view.readUInt32LE(0), view.readUInt32LE(4)];
    },
    f64: (name, index) => read(name, index * width(name, 'f64'), 8).readDoubleLE(0),
    text: (name, start, length) => read(name, start, length).toString('utf8', 0, length),
  };
}
