/**
 * lru-cache as the functions bundle it (`scripts/vercel/lru-cache-lists.ts`):
 * its lists made without `Array.from`, the cache the same.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { lruCacheListsSource } from '../../scripts/vercel/lru-cache-lists.ts';

/** The module an ES import of lru-cache loads, the one the bundles take. */
const esm = fileURLToPath(import.meta.resolve('lru-cache'));

describe("lru-cache's lists in the bundles", () => {
  it('are made without Array.from, and the cache keeps and evicts as the package does', async () => {
    const rewritten = lruCacheListsSource(readFileSync(esm, 'utf8'));
    expect(/Array\.from\(\{\s*length:\s*\w+\s*\}\)\.fill/.test(rewritten)).toBe(false);
    expect(rewritten.match(/new Array\(\w+\)\.fill\(void 0\)/g)?.length).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'lru-cache-lists-'));
    // The package's other modules beside it, as in the package.
    cpSync(dirname(esm), dir, { recursive: true });
    writeFileSync(join(dir, 'index.js'), rewritten);
    const { LRUCache: Bundled } = (await import(pathToFileURL(join(dir, 'index.js')).href)) as {
      LRUCache: typeof LRUCache;
    };
    const [bundled, original] = [
      new Bundled<number, number>({ max: 50 }),
      new LRUCache<number, number>({ max: 50 }),
    ];
    for (let i = 0; i < 500; i++) {
      const key = (i * 7919) % 97;
      for (const cache of [bundled, original]) {
        if (i % 3 === 0) cache.get(key);
        else cache.set(key, i);
      }
    }
    expect([...bundled.entries()]).toEqual([...original.entries()]);
    expect(bundled.size).toBe(original.size);
  });

  it('fail the build when lru-cache builds its lists otherwise', () => {
    expect(() => lruCacheListsSource('this.#keyList = Array.from({ length: max }).fill(undefined);')).toThrow(
      /expects 2/,
    );
  });
});
