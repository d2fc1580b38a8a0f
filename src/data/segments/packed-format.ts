/**
 * The packed segment index: a catalog validated once (at import or build
 * time) and written as one binary file the server maps into typed arrays
 * without parsing or validating anything per segment. Little-endian; every
 * section starts on an 8-byte boundary so typed-array views need no copy.
 *
 * Header (`HEADER_BYTES`):
 *
 * | byte | type      | field                                                  |
 * | ---- | --------- | ------------------------------------------------------ |
 * | 0    | 8 × ASCII | magic `WOSSEGIX`                                       |
 * | 8    | u32       | format version ({@link PACKED_FORMAT_VERSION})         |
 * | 12   | u32       | section count (`SECTIONS.length`)                      |
 * | 16   | u32       | segment count                                          |
 * | 20   | u32       | string count                                           |
 * | 24   | u32       | CRC-32 of every section but `points`                   |
 * | 28   | u32       | 0                                                      |
 * | 32   | f64       | file length in bytes                                   |
 * | 40   | f64       | point count                                            |
 * | 48   | f64 × 2 n | per section: byte offset, byte length                  |
 * | …    | u32       | CRC-32 of the header bytes before it                   |
 *
 * The sections, in file order, are listed in {@link SECTIONS}. Everything but
 * `points` is read into memory at start-up and checked against its CRC; the
 * polylines (`points`, the bulk of the file) stay on disk and are read when a
 * query returns their segment, each checked against its own CRC in
 * `polylineCrcs`.
 *
 * Why our own layout rather than Apache Arrow or FlatGeobuf: both would add
 * a dependency of several hundred KB to a function whose cold start is
 * budgeted, neither stores kdbush's tree (the one geokdbush searches, which
 * keeps answers identical to the GeoJSON catalog's), and what we need is a
 * handful of typed arrays laid end to end, which Node reads without help.
 */

/** The first 8 bytes of every packed index. */
export const PACKED_MAGIC = 'WOSSEGIX';

/**
 * Bumped whenever the layout or the meaning of a field changes (including the
 * name folding behind `nameKeys`); a server refuses any other version, so an
 * old index is re-packed rather than misread.
 */
export const PACKED_FORMAT_VERSION = 2;

/** File name ending the import gives a packed index next to its GeoJSON source. */
export const PACKED_EXTENSION = '.segidx';

/** Element type of a section; the byte length must be a whole number of them. */
export type SectionType = 'u8' | 'u32' | 'f64';

/** Section names in file order, with their element type. */
export const SECTIONS = [
  /** kdbush's own serialised index over segment starts (`KDBush.from`), lon/lat as f64. */
  ['kdbush', 'u8'],
  /** One value per segment, in catalog order. */
  ['ranks', 'f64'],
  ['distances', 'f64'],
  ['grades', 'f64'],
  ['gains', 'f64'],
  /** Per segment, five string numbers: id, name, country, source, license. */
  ['stringRefs', 'u32'],
  /** Per segment, where its aliases start in `aliasRefs` (count + 1 entries). */
  ['aliasOffsets', 'u32'],
  ['aliasRefs', 'u32'],
  /** Where each string starts in `stringBytes` (string count + 1 entries); strings are UTF-8, deduplicated. */
  ['stringOffsets', 'u32'],
  ['stringBytes', 'u8'],
  /** Segment numbers sorted by id (code-unit order), for binary search by id. */
  ['idOrder', 'u32'],
  /** String numbers of the folded names and aliases, sorted, each with its segments in `namePostings`. */
  ['nameKeys', 'u32'],
  ['nameKeyOffsets', 'u32'],
  /** Segment numbers per name key, most popular first. */
  ['namePostings', 'u32'],
  /** Per segment, its first point in `points` (count + 1 entries). */
  ['pointOffsets', 'u32'],
  /** Per segment, the CRC-32 of its bytes in `points`. */
  ['polylineCrcs', 'u32'],
  /** lon, lat pairs as f64, in riding order; never loaded whole. */
  ['points', 'f64'],
] as const satisfies readonly (readonly [string, SectionType])[];

export type SectionName = (typeof SECTIONS)[number][0];

/**
 * Strings per segment in `stringRefs`, in this order: id, name, country,
 * source, licence, and the optional fields of a discovered segment (kind,
 * steepest grade, what its rank rests on, provenance) as the JSON of its
 * GeoJSON properties, or the empty string (version 2).
 */
export const STRING_FIELDS = 6;

/** Fixed fields, the section table, then the header's own CRC, padded to 8 bytes. */
export const HEADER_BYTES = 48 + SECTIONS.length * 16 + 8;

export const BYTES: Record<SectionType, number> = { u8: 1, u32: 4, f64: 8 };

/** Rounds a byte offset up to the next 8-byte boundary. */
export function align8(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

/**
 * The error of a packed index that cannot be used: unreadable, truncated,
 * corrupt, of another format version, or not an index at all. A plain
 * `Error`, not a class of its own: nothing catches it by type, it ends the
 * server's start-up, so its message names the file and the problem.
 */
export function packedCatalogError(file: string, problem: string, options?: ErrorOptions): Error {
  return new Error(`Segment index ${file}: ${problem}`, options);
}
