import { basename } from 'node:path';
import type { BBox } from '../../core/discovery/osm-types.ts';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import type { Segment } from '../segments/types.ts';
import { discoverSegments, type DiscoveredSegment, type DiscoveryCounts } from './discover.ts';
import { hgtElevationSource } from './hgt-elevation.ts';
import { adoptHandTraced } from './one-catalog.ts';
import { readOsmFile } from './osm-file.ts';

export interface FileDiscoveryReport {
  readonly file: string;
  readonly segments: number;
  readonly counts: DiscoveryCounts;
  readonly ms: number;
}

/**
 * Offline discovery over OpenStreetMap files (`.osm.pbf`, `.osm`, `.osm.gz`)
 * and a folder of SRTM tiles: what the build runs over the shipped seed
 * extracts, and what `npm run segments:discover -- --osm … --dem …` runs for
 * an operator preparing a region. Ids are unique over all the files.
 */
export async function discoverFromFiles(options: {
  osmFiles: readonly string[];
  demDir: string;
  countryOf: CountryOf;
  handTraced: readonly Segment[];
  bbox?: BBox;
}): Promise<{ segments: DiscoveredSegment[]; reports: FileDiscoveryReport[] }> {
  const elevation = hgtElevationSource(options.demDir);
  const all: DiscoveredSegment[] = [];
  const reports: FileDiscoveryReport[] = [];
  for (const file of options.osmFiles) {
    const started = performance.now();
    const extract = await readOsmFile(file, options.bbox);
    const { segments, counts } = await discoverSegments(extract, elevation, {
      osmSource: `OpenStreetMap extract ${basename(file)}`,
      countryOf: options.countryOf,
    });
    all.push(...segments);
    reports.push({ file, segments: segments.length, counts, ms: performance.now() - started });
  }
  const seen = new Set<string>();
  const unique = all.map((segment) => {
    let id = segment.id;
    for (let n = 2; seen.has(id); n++) id = `${segment.id}-${n}`;
    seen.add(id);
    return id === segment.id ? segment : { ...segment, id };
  });
  return { segments: adoptHandTraced(options.handTraced, unique).segments, reports };
}
