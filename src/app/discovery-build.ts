/**
 * An offline build's areas into the rider store (`npm run segments:discover
 * -- --osm … --into-store`): each area in one transaction with its
 * provenance and the build's identity, a refreshed area's segments keeping
 * the ids they had (stable-ids.ts), and an id another area holds given a
 * suffix rather than dropped. Areas are written in the build's fixed order,
 * so a build stopped halfway and started again writes what an uninterrupted
 * one would have.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { uniqueId, type AreaSink } from '../data/discovery/discover-files.ts';
import { keepStableIds, storedEnds, type StoredEnds } from '../data/discovery/stable-ids.ts';
import { segmentToFeature } from '../data/segments/geojson.ts';
import type { Store } from '../store/database.ts';
import {
  findAreaFeatures,
  findBuiltAreas,
  findSegmentAreas,
  saveDiscoveredArea,
} from '../store/repositories/discovered-segments.ts';

/**
 * A build's identity: the file's name, size and first MiB. The same file
 * built again resumes; a newer extract (or `--fresh`, which adds the time)
 * is a new build that refreshes every area.
 */
export async function buildIdentity(osmFile: string, fresh: string | null = null): Promise<string> {
  const handle = await open(osmFile, 'r');
  try {
    const head = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const hash = createHash('sha256')
      .update(`${basename(osmFile)}\n${(await stat(osmFile)).size}\n${fresh ?? ''}\n`)
      .update(head.subarray(0, bytesRead))
      .digest('hex')
      .slice(0, 16);
    return `${basename(osmFile)}#${hash}`;
  } finally {
    await handle.close();
  }
}

export function storeAreaSink(store: Store, build: string, now: () => number): AreaSink {
  const { db } = store;
  return {
    finished: async (keys) => new Set(await findBuiltAreas(db, build, keys)),
    async area(area) {
      const previous = (await findAreaFeatures(db, [area.key]))
        .map(storedEnds)
        .filter((ends): ends is StoredEnds => ends !== null);
      const stable = keepStableIds(previous, area.segments);
      const held = await findSegmentAreas(
        db,
        stable.flatMap((segment) => [segment.id, `${segment.id}-w${segment.provenance.osmWayIds[0] ?? 0}`]),
      );
      const mine = new Set<string>();
      const features = stable.map((segment) => {
        const elsewhere = (id: string) => mine.has(id) || (held.has(id) && held.get(id) !== area.key);
        const id = uniqueId(segment, elsewhere);
        mine.add(id);
        return {
          id,
          feature: JSON.stringify(segmentToFeature(id === segment.id ? segment : { ...segment, id })),
        };
      });
      return saveDiscoveredArea(
        db,
        {
          key: area.key,
          checkedAt: now(),
          osmTimestamp: area.osmTimestamp,
          osmSource: area.osmSource,
          elevationSource: area.elevationSource,
          build,
        },
        features,
      );
    },
  };
}
