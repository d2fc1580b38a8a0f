import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseSegmentCollection } from './geojson.ts';
import type { Segment } from './types.ts';

/** The setting naming an operator's catalog file used instead of the embedded one. */
export const SEGMENTS_FILE_ENV = 'WOS_SEGMENTS_FILE';

let embedded: readonly Segment[] | undefined;

/**
 * Segments the build discovers from the shipped OpenStreetMap extracts
 * (`scripts/data/seed-segments.ts`); generated, never committed.
 */
export const SEED_SEGMENTS_PATH = new URL('./discovered.generated.geojson', import.meta.url);

function readCatalog(location: string | URL, label: string): readonly Segment[] {
  let text: string;
  try {
    text = readFileSync(location, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read segment catalog ${label}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`Segment catalog ${label} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return Object.freeze(parseSegmentCollection(json, `Invalid segment catalog ${label}`));
}

/**
 * The catalog shipped with the server, parsed on first use and kept: every
 * request shares one copy, and a broken embedded file fails the first call
 * loudly (the unit tests parse it too, so it cannot ship broken).
 */
export function loadEmbeddedSegments(): readonly Segment[] {
  embedded ??= Object.freeze(
    withSeed(
      loadHandTracedSegments(),
      existsSync(SEED_SEGMENTS_PATH) ? readCatalog(SEED_SEGMENTS_PATH, 'discovered.generated.geojson') : [],
    ),
  );
  return embedded;
}

/** The hand-traced catalog alone (CC0): what discovery adopts climbs from. */
export function loadHandTracedSegments(): readonly Segment[] {
  return readCatalog(new URL('./catalog.geojson', import.meta.url), 'catalog.geojson (embedded)');
}

/** One catalog: a discovered entry holding a hand-traced id (an adopted climb) replaces the traced line. */
function withSeed(handTraced: readonly Segment[], seed: readonly Segment[]): Segment[] {
  const adopted = new Set(seed.map((segment) => segment.id));
  return [...handTraced.filter((segment) => !adopted.has(segment.id)), ...seed];
}

/** An operator's catalog (e.g. made with `npm run segments:import`); relative paths resolve from the working directory. */
export function loadSegmentsFile(path: string): readonly Segment[] {
  const absolute = resolve(path);
  return readCatalog(absolute, absolute);
}

/**
 * The catalog the server uses: the operator's file when one is named
 * (`WOS_SEGMENTS_FILE`; not merged with the embedded one, so an operator can
 * also remove entries), the embedded catalog otherwise.
 */
export function loadSegments(file: string | undefined): readonly Segment[] {
  return file === undefined || file === '' ? loadEmbeddedSegments() : loadSegmentsFile(file);
}
