/**
 * Where a segment's elevation profile reads its heights, as `WOS_DISCOVERY`
 * says: `seed` (offline) the SRTM tiles shipped in `seed/dem` only, so a
 * segment outside them has no profile; `online` those tiles first where they
 * cover the segment, else Open-Meteo's elevation API (`WOS_ELEVATION_URL`).
 * Loaded with the first `/v1/segments/{id}` (`app.ts`), never by a calculation.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { coveredFirst } from '../data/discovery/covered-first.ts';
import { hgtElevationSource } from '../data/discovery/hgt-elevation.ts';
import { openMeteoElevationSource } from '../data/discovery/open-meteo-elevation.ts';
import type { ElevationSource } from '../data/discovery/types.ts';
import { createSegmentProfiles, type SegmentProfiles } from '../data/segments/segment-profile.ts';
import { PROFILE_POINTS } from '../rest/schemas/segment-results.ts';
import type { Settings } from './settings.ts';

/**
 * The folder holding the seed tiles: beside the bundle when
 * `scripts/vercel/bundle-functions.ts` copied them there (each named here, so
 * the deployment's file tracing finds them), else the repository's `seed/dem`.
 */
export function seedTileDir(): string {
  const bundled = [
    new URL('./N42E001.hgt.zip', import.meta.url),
    new URL('./N43E007.hgt.zip', import.meta.url),
  ];
  if (bundled.every((url) => existsSync(fileURLToPath(url))))
    return fileURLToPath(new URL('./', import.meta.url));
  return fileURLToPath(new URL('../../seed/dem/', import.meta.url));
}

/** The elevation source of the mode: the seed tiles, or those before the elevation API. */
export function profileElevation(
  discovery: Pick<Settings['discovery'], 'mode' | 'elevationUrl'>,
  tileDir: string = seedTileDir(),
): ElevationSource {
  const tiles = hgtElevationSource(tileDir);
  if (discovery.mode !== 'online') return tiles;
  return coveredFirst(tiles, openMeteoElevationSource({ url: discovery.elevationUrl }));
}

export function openSegmentProfiles(
  discovery: Pick<Settings['discovery'], 'mode' | 'elevationUrl'>,
  tileDir?: string,
): SegmentProfiles {
  return createSegmentProfiles(profileElevation(discovery, tileDir), { samples: PROFILE_POINTS });
}
