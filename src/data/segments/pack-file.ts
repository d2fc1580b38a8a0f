import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import {
  featureToSegment,
  parseSegmentCollection,
  SegmentCatalogError,
  SegmentFeatureSchema,
} from './geojson.ts';
import { writePackedCatalog, type PackReport } from './pack.ts';
import { PACKED_EXTENSION } from './packed-format.ts';
import type { Segment } from './types.ts';

/**
 * Endings of GeoJSON text sequences: one Feature per line (RFC 8142, or
 * newline-delimited JSON). A catalog of a million segments is about 1 GB of
 * GeoJSON, more than V8 can hold as one string, so big catalogs come as
 * sequences, read a line at a time.
 */
export const SEQUENCE_EXTENSIONS: readonly string[] = ['.geojsonl', '.geojsons', '.ndjson'];

/** RFC 8142 starts each record with this character; newline-delimited files do not. */
const RECORD_SEPARATOR = '\u001e';

/** The packed index written next to a catalog: `segments.local.geojson` → `segments.local.segidx`. */
export function indexPathFor(catalogPath: string): string {
  const extension = extname(catalogPath);
  const stem = extension === '' ? catalogPath : catalogPath.slice(0, -extension.length);
  return `${stem}${PACKED_EXTENSION}`;
}

/** The lines of a file, read in 4 MB chunks, so a file bigger than a string still streams. */
function* linesOf(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(4 << 20);
    const decoder = new TextDecoder();
    let rest = '';
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      const lines = (rest + decoder.decode(chunk.subarray(0, read), { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    yield rest + decoder.decode();
  } finally {
    closeSync(fd);
  }
}

/** Validates a text sequence feature by feature; throws once at the end with every problem (first 50). */
function* sequenceSegments(path: string): Generator<Segment> {
  const problems: string[] = [];
  let line = 0;
  for (const text of linesOf(path)) {
    line += 1;
    const trimmed = (text.startsWith(RECORD_SEPARATOR) ? text.slice(1) : text).trim();
    if (trimmed === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      problems.push(`line ${line}: not JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = SegmentFeatureSchema.safeParse(json);
    if (parsed.success) yield featureToSegment(parsed.data);
    else
      for (const issue of parsed.error.issues)
        problems.push(`line ${line} ${issue.path.map(String).join('.')}: ${issue.message}`);
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, 50);
    if (problems.length > listed.length) listed.push(`… and ${problems.length - listed.length} more`);
    throw new SegmentCatalogError(listed, `Not packed: invalid catalog ${path}`);
  }
}

/**
 * Validates a catalog file (GeoJSON FeatureCollection, or a text sequence
 * for big catalogs) and writes its packed index, by default next to it.
 * This is where validation happens: the server then opens the index
 * without checking a single segment again.
 */
export function packCatalogFile(inputPath: string, outPath = indexPathFor(inputPath)): PackReport {
  const input = resolve(inputPath);
  const out = resolve(outPath);
  if (SEQUENCE_EXTENSIONS.includes(extname(input).toLowerCase()))
    return writePackedCatalog(out, sequenceSegments(input), { validate: false });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(input, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot pack ${input}: ${(error as Error).message}`, { cause: error });
  }
  const segments = parseSegmentCollection(json, `Not packed: invalid catalog ${input}`);
  return writePackedCatalog(out, segments, { validate: false });
}
