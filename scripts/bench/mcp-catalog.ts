/**
 * The MCP bench's catalog: synthetic segments written as the GeoJSON file an
 * operator would give `WOS_SEGMENTS_FILE`, plus what each step of loading it
 * costs in this process. The server pays the same parse at start-up, so a
 * slow start can be traced to reading, validating or indexing.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LatLon } from '../../src/core/bearing.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { generateSegments } from '../../src/data/segments/generate.ts';
import {
  formatFeatureCollection,
  parseSegmentCollection,
  segmentToFeature,
} from '../../src/data/segments/geojson.ts';
import type { Segment, SegmentCatalog } from '../../src/data/segments/types.ts';

/** Milliseconds for each step, in the order the server (or the bench) runs them. */
export interface CatalogTimings {
  readonly generateMs: number;
  readonly formatMs: number;
  readonly readMs: number;
  readonly jsonParseMs: number;
  readonly validateMs: number;
  readonly indexMs: number;
}

export interface BenchCatalog {
  readonly path: string;
  readonly bytes: number;
  readonly segments: readonly Segment[];
  readonly catalog: SegmentCatalog;
  readonly timings: CatalogTimings;
  /** Deletes the temporary file and its directory. */
  remove(): Promise<void>;
}

function timed<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

/**
 * Generates `count` segments, writes them to a temporary file in the
 * operator format, and loads that file back exactly as the server does
 * (read, JSON.parse, zod validation, index), timing each step.
 */
export async function prepareCatalog(count: number, seed: number): Promise<BenchCatalog> {
  const [generated, generateMs] = timed(() => generateSegments(count, seed));
  const [text, formatMs] = timed(() => formatFeatureCollection(generated.map(segmentToFeature)));
  const dir = await mkdtemp(join(tmpdir(), 'bench-mcp-'));
  const path = join(dir, `segments-${count}.geojson`);
  await writeFile(path, text);
  const [read, readMs] = timed(() => readFileSync(path, 'utf8'));
  const [json, jsonParseMs] = timed((): unknown => JSON.parse(read));
  const [segments, validateMs] = timed(() => parseSegmentCollection(json));
  const [catalog, indexMs] = timed(() => createSegmentCatalog(segments));
  return {
    path,
    bytes: Buffer.byteLength(text),
    segments,
    catalog,
    timings: { generateMs, formatMs, readMs, jsonParseMs, validateMs, indexMs },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * `count` places spread over the catalog: the starts of segments taken at an
 * even stride through it (the generator draws regions at random, so the
 * stride visits every region), rounded to 0.001° so a place is near, not on,
 * a segment start. Each has segments within the default 25 km radius.
 */
export function benchPlaces(segments: readonly Segment[], count: number): LatLon[] {
  const stride = Math.max(1, Math.floor(segments.length / count));
  const places: LatLon[] = [];
  for (let i = 0; i < segments.length && places.length < count; i += stride) {
    const start = segments[i]?.polyline[0];
    if (start)
      places.push({ lat: Math.round(start.lat * 1000) / 1000, lon: Math.round(start.lon * 1000) / 1000 });
  }
  return places;
}

/** Mean time of one `near` query (25 km, limit 10) over the places, in microseconds: the index's share of a call. */
export function nearQueryMicros(catalog: SegmentCatalog, places: readonly LatLon[], rounds = 20): number {
  for (const place of places) catalog.near(place, 25_000, 10);
  const [, ms] = timed(() => {
    for (let r = 0; r < rounds; r += 1) for (const place of places) catalog.near(place, 25_000, 10);
  });
  return (ms * 1000) / (rounds * places.length);
}
