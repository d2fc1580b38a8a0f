/**
 * What a page with a map downloads after its first paint: the MapLibre chunk
 * the map module loads with `import()`, its worker (a separate file the chunk
 * starts) and its stylesheet. No page loads them up front (the per-page table
 * counts the chunk as "lazy"); this names the three and their gzip sizes so a
 * MapLibre upgrade that grows them shows in the report.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface MapFile {
  readonly role: 'chunk' | 'worker' | 'css';
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** Vite names a chunk after its entry module: the map module's lazy half is `maplibre-view.ts`. */
const ROLES: readonly (readonly [MapFile['role'], RegExp])[] = [
  ['chunk', /^maplibre-view\.[\w-]+\.js$/],
  ['worker', /^maplibre-gl-worker\.[\w-]+\.m?js$/],
  ['css', /^maplibre-view\.[\w-]+\.css$/],
];

export async function measureMapFiles(dist: string): Promise<MapFile[]> {
  const assets = join(dist, '_astro');
  const names = await readdir(assets);
  const found: MapFile[] = [];
  for (const [role, pattern] of ROLES) {
    for (const name of names.filter((candidate) => pattern.test(candidate))) {
      const content = await readFile(join(assets, name));
      found.push({
        role,
        file: `/_astro/${name}`,
        bytes: content.byteLength,
        gzipBytes: gzipSync(content, { level: 9 }).byteLength,
      });
    }
  }
  return found;
}
