import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import type { Segment } from '../segments/types.ts';
import { discoverBlocks } from './block-pool.ts';
import type { BlockTask } from './block-discovery.ts';
import type { DiscoveryCounts } from './discover.ts';
import type { DiscoveredSegment } from './segment-records.ts';
import { HGT_CACHE_TILES } from './hgt-elevation.ts';
import { adoptHandTraced } from './one-catalog.ts';
import { readOsmBlocks, type ReadStage } from './osm-blocks.ts';

/**
 * Offline discovery over OpenStreetMap files (`.osm.pbf`, `.osm`, `.osm.gz`)
 * and a folder of SRTM tiles: what the build runs over the shipped seed
 * extracts, and what `npm run segments:discover -- --osm … --dem …` runs for
 * an operator preparing a country. A file is read into blocks of the areas
 * on-demand discovery uses (osm-blocks.ts, build-blocks.ts), the blocks are
 * discovered by a pool of workers (block-pool.ts), and each area's segments go
 * to a sink as soon as their block is done, in a fixed order: a GeoJSON file
 * written feature by feature, or the rider store, one transaction per area.
 * Memory is the node index while reading, then one block per worker.
 */

/** One area as the build hands it to a sink. */
export interface BuiltArea {
  readonly key: string;
  readonly segments: readonly DiscoveredSegment[];
  readonly osmTimestamp: string | null;
  readonly osmSource: string;
  readonly elevationSource: string;
}

/** Where a build's areas go. */
export interface AreaSink {
  /** The areas among `keys` this build wrote before (a resumed run skips them); none for a file. */
  finished(keys: readonly string[]): Promise<ReadonlySet<string>>;
  /** Writes one area; returns how many segments it wrote. */
  area(area: BuiltArea): Promise<number>;
}

export type BuildStage = ReadStage | 'areas';

export interface BuildProgress {
  readonly stage: BuildStage;
  /** Bytes for the reading stages, areas for `areas`. */
  readonly done: number;
  readonly total: number;
  readonly segments: number;
}

export interface BuildSummary {
  readonly file: string;
  readonly areas: number;
  /** Areas a previous run of this build had written, not done again. */
  readonly skippedAreas: number;
  readonly blocks: number;
  readonly segments: number;
  readonly climbs: number;
  readonly stretches: number;
  readonly ways: number;
  readonly roadNodes: number;
  readonly counts: DiscoveryCounts;
  /** Reading the file into blocks, then the whole run, milliseconds. */
  readonly readMs: number;
  /** CPU time of the reading (one thread: the workers start after it), milliseconds. */
  readonly readCpuMs: number;
  readonly ms: number;
}

export interface BuildOptions {
  readonly osmFile: string;
  readonly demDir: string;
  readonly sink: AreaSink;
  readonly handTraced: readonly Segment[];
  readonly countryOf: () => Promise<CountryOf>;
  /** Worker threads (0: this thread). */
  readonly workers: number;
  readonly tmpDir?: string;
  /** Elevation tiles each worker keeps decoded. */
  readonly maxTiles?: number;
  /** Road nodes a block may hold before it is halved (build-blocks.ts). */
  readonly blockNodes?: number;
  /** Largest block, areas per side. */
  readonly blockAreas?: number;
  readonly marginM?: number;
  readonly workerHeapMb?: number;
  readonly onProgress?: (progress: BuildProgress) => void;
  readonly signal?: AbortSignal;
}

/** Builds the areas of one OSM file into `options.sink`. */
export async function buildFromFile(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const report = options.onProgress ?? (() => undefined);
  let segments = 0;
  const read = await readOsmBlocks(options.osmFile, {
    tmpDir: options.tmpDir ?? tmpdir(),
    ...(options.blockNodes === undefined ? {} : { maxNodes: options.blockNodes }),
    ...(options.blockAreas === undefined ? {} : { maxAreas: options.blockAreas }),
    ...(options.marginM === undefined ? {} : { marginM: options.marginM }),
    onProgress: (p) => report({ ...p, segments: 0 }),
  });
  try {
    const readMs = performance.now() - started;
    const readCpu = process.cpuUsage(cpuAtStart);
    const readCpuMs = (readCpu.user + readCpu.system) / 1000;
    const osmSource = `OpenStreetMap extract ${basename(options.osmFile)}`;
    const allKeys = read.blocks.flatMap((b) => b.block.areaKeys);
    const finished = await options.sink.finished(allKeys);
    const tasks: BlockTask[] = read.blocks
      .filter((b) => b.block.areaKeys.some((key) => !finished.has(key)))
      .map((b) => ({
        block: b.block,
        file: b.file,
        relations: b.relations.map((index) => read.relations[index]).filter((r) => r !== undefined),
        timestamp: read.timestamp,
        osmSource,
      }));
    const total = allKeys.length;
    let done = allKeys.filter((key) => finished.has(key)).length;
    let [climbs, stretches] = [0, 0];
    const counts = { chains: 0, sampledChains: 0, heights: 0, climbs: 0, stretches: 0 };
    let handTraced = [...options.handTraced];
    report({ stage: 'areas', done, total, segments });
    for await (const result of discoverBlocks(tasks, {
      workers: options.workers,
      demDir: options.demDir,
      maxTiles: options.maxTiles ?? HGT_CACHE_TILES,
      countryOf: options.countryOf,
      ...(options.workerHeapMb === undefined ? {} : { workerHeapMb: options.workerHeapMb }),
      ...(options.signal ? { signal: options.signal } : {}),
    })) {
      counts.chains += result.counts.chains;
      counts.sampledChains += result.counts.sampledChains;
      counts.heights += result.counts.heights;
      counts.climbs += result.counts.climbs;
      counts.stretches += result.counts.stretches;
      // A hand-traced climb is adopted once in the whole build, by the first block that finds it.
      const found = result.areas.flatMap((area) => area.segments);
      const adopted = adoptHandTraced(handTraced, found);
      handTraced = handTraced.filter((hand) => !adopted.replaced.has(hand.id));
      let at = 0;
      for (const area of result.areas) {
        const own = adopted.segments.slice(at, at + area.segments.length);
        at += area.segments.length;
        if (finished.has(area.key)) continue;
        options.signal?.throwIfAborted();
        const written = await options.sink.area({
          key: area.key,
          segments: own,
          osmTimestamp: read.timestamp,
          osmSource,
          elevationSource: result.elevationSource,
        });
        segments += written;
        for (const segment of own) {
          if (segment.kind === 'climb') climbs++;
          else stretches++;
        }
        done++;
        report({ stage: 'areas', done, total, segments });
      }
    }
    return {
      file: options.osmFile,
      areas: total,
      skippedAreas: allKeys.filter((key) => finished.has(key)).length,
      blocks: read.blocks.length,
      segments,
      climbs,
      stretches,
      ways: read.counts.ways,
      roadNodes: read.counts.roadNodes,
      counts,
      readMs,
      readCpuMs,
      ms: performance.now() - started,
    };
  } finally {
    read.remove();
  }
}

/**
 * A segment's id made unique against those `taken`: the first way's id added
 * (as one extract's own duplicates get), then a count. Deterministic, so a
 * build written in a fixed order gives every run the same ids.
 */
export function uniqueId(segment: DiscoveredSegment, taken: (id: string) => boolean): string {
  if (!taken(segment.id)) return segment.id;
  const withWay = `${segment.id}-w${segment.provenance.osmWayIds[0] ?? 0}`;
  if (!taken(withWay)) return withWay;
  for (let n = 2; ; n++) if (!taken(`${withWay}-${n}`)) return `${withWay}-${n}`;
}

export interface FileDiscoveryReport {
  readonly file: string;
  readonly segments: number;
  readonly counts: DiscoveryCounts;
  readonly ms: number;
}

/**
 * The segments of a few small files in memory, ids unique over all of them:
 * the seed build (Andorra, Monaco). A country goes through `buildFromFile`
 * into a file or the store instead.
 */
export async function discoverFromFiles(options: {
  osmFiles: readonly string[];
  demDir: string;
  countryOf: CountryOf;
  handTraced: readonly Segment[];
  workers?: number;
}): Promise<{ segments: DiscoveredSegment[]; reports: FileDiscoveryReport[] }> {
  const all: DiscoveredSegment[] = [];
  const ids = new Set<string>();
  const reports: FileDiscoveryReport[] = [];
  let handTraced = [...options.handTraced];
  for (const file of options.osmFiles) {
    const before = all.length;
    const summary = await buildFromFile({
      osmFile: file,
      demDir: options.demDir,
      handTraced,
      countryOf: async () => options.countryOf,
      workers: options.workers ?? 0,
      sink: {
        finished: async () => new Set(),
        area: async ({ segments }) => {
          for (const segment of segments) {
            const id = uniqueId(segment, (candidate) => ids.has(candidate));
            ids.add(id);
            all.push(id === segment.id ? segment : { ...segment, id });
          }
          return segments.length;
        },
      },
    });
    const adopted = new Set(all.slice(before).map((s) => s.id));
    handTraced = handTraced.filter((hand) => !adopted.has(hand.id));
    reports.push({ file, segments: all.length - before, counts: summary.counts, ms: summary.ms });
  }
  return { segments: all, reports };
}
