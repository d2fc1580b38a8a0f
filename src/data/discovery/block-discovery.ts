import { readFile } from 'node:fs/promises';
import type { OsmRelation } from '../../core/discovery/osm-types.ts';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import { areaKeyOf, startsIn, type BuildBlock } from './build-blocks.ts';
import type { TownsIn } from '../geocoding/gazetteer-towns.ts';
import { discoverSegments, type DiscoveryCounts } from './discover.ts';
import type { DiscoveredSegment } from './segment-records.ts';
import { blockExtract } from './osm-blocks.ts';
import type { ElevationSource } from './types.ts';

/** One block to discover, as the build hands it to a worker (structured-cloneable). */
export interface BlockTask {
  readonly block: BuildBlock;
  readonly file: string;
  readonly relations: readonly OsmRelation[];
  readonly timestamp: string | null;
  readonly osmSource: string;
}

/** What a block gave: its areas' segments (every area of the block, empty ones too), in key order. */
export interface BlockResult {
  readonly index: number;
  readonly areas: readonly { readonly key: string; readonly segments: readonly DiscoveredSegment[] }[];
  readonly counts: DiscoveryCounts;
  readonly elevationSource: string;
  /** Milliseconds of this block's reading and discovery. */
  readonly ms: number;
}

/**
 * Discovers one block: its file read into the extract the stages take, the
 * stages run as `discoverSegments` runs them for any area, and the segments
 * kept where they start inside the block, each filed under its start's area.
 */
export async function discoverBlock(
  task: BlockTask,
  elevation: ElevationSource,
  countryOf: CountryOf,
  townsIn?: TownsIn,
): Promise<BlockResult> {
  const started = performance.now();
  const extract = blockExtract(
    await readFile(task.file, 'utf8'),
    task.block.read,
    task.relations,
    task.timestamp,
  );
  const { segments, counts } = await discoverSegments(extract, elevation, {
    osmSource: task.osmSource,
    countryOf,
    ...(townsIn ? { places: townsIn(task.block.read) } : {}),
  });
  const byArea = new Map<string, DiscoveredSegment[]>(task.block.areaKeys.map((key) => [key, []]));
  for (const segment of segments) {
    const start = segment.polyline[0];
    if (start === undefined || !startsIn(start, task.block.core)) continue;
    const key = areaKeyOf(start);
    const list = byArea.get(key);
    if (list) list.push(segment);
    // A segment may start in an area of the core that holds no road node of its own (a way
    // crossing it between two nodes): that area gets a row too.
    else byArea.set(key, [segment]);
  }
  return {
    index: task.block.index,
    areas: [...byArea.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, list]) => ({ key, segments: list })),
    counts,
    elevationSource: elevation.label,
    ms: performance.now() - started,
  };
}
