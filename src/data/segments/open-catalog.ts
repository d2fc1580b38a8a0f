import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { PACKED_MAGIC } from './packed-format.ts';
import type { SegmentCatalog } from './types.ts';

/** True when the file starts with the packed index's magic; GeoJSON starts with `{` or white space. */
export function isPackedIndex(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false; // the GeoJSON reader reports a missing file with its usual message
  }
  try {
    const head = new Uint8Array(PACKED_MAGIC.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return new TextDecoder().decode(head.subarray(0, read)) === PACKED_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/**
 * The catalog the server queries, from `WOS_SEGMENTS_FILE` or the embedded
 * one. A packed index (`npm run segments:import` writes one next to each
 * GeoJSON catalog) opens in well under a second at any size, since it was
 * validated when packed; a GeoJSON file is still accepted and validated
 * here, which is fine for a few thousand segments and slow beyond. The
 * format is told by the file's first bytes, not its name. Each path loads
 * only its own modules, so a packed catalog never loads zod.
 */
export async function openSegmentCatalog(file: string | undefined): Promise<SegmentCatalog> {
  if (file !== undefined && file !== '' && isPackedIndex(resolve(file))) {
    const { openPackedCatalog } = await import('./packed-catalog.ts');
    return openPackedCatalog(resolve(file));
  }
  const [{ createSegmentCatalog }, { loadSegments }] = await Promise.all([
    import('./catalog.ts'),
    import('./load.ts'),
  ]);
  return createSegmentCatalog(loadSegments(file));
}
