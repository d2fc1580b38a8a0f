import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { COLLECTION_HEAD, COLLECTION_TAIL, formatFeature, formatFeatureCollection } from './geojson.ts';

/**
 * A formatted collection written feature by feature, byte for byte what
 * `formatFeatureCollection` would write for the same features: a country's
 * catalog never has to fit in one string (V8 stops near 512 MB, some 83,000
 * segments). Written to a temporary name and renamed by `close`, so a reader
 * never sees half a file.
 */
export interface FeatureCollectionWriter {
  write(feature: unknown): Promise<void>;
  /** Finishes the file; `abandon` removes it instead. */
  close(): Promise<void>;
  abandon(): Promise<void>;
  readonly count: number;
}

export async function openFeatureCollection(path: string): Promise<FeatureCollectionWriter> {
  const partial = `${path}.partial`;
  const stream = createWriteStream(partial);
  await once(stream, 'open');
  let count = 0;
  const put = async (text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  const end = async () => {
    stream.end();
    await once(stream, 'finish');
  };
  return {
    get count() {
      return count;
    },
    async write(feature) {
      await put(`${count === 0 ? COLLECTION_HEAD : ',\n'}${formatFeature(feature)}`);
      count++;
    },
    async close() {
      await put(count === 0 ? formatFeatureCollection([]) : `\n${COLLECTION_TAIL}`);
      await end();
      await rename(partial, path);
    },
    async abandon() {
      await end();
      await rm(partial, { force: true });
    },
  };
}
