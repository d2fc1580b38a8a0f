import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prebuiltSyncQueriesModule } from '../../scripts/vercel/prebuilt-sync-queries.ts';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { SYNC_ANSWERS } from '../../src/rest/sync-answers.ts';
import { SYNC_QUERIES } from '../../src/rest/sync-queries.ts';

describe('the synchronous endpoints as the REST function reads them without zod', () => {
  it('has the query table generated at build time equal to the one read off the schemas', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wos-sync-queries-')), 'sync-queries.ts');
    writeFileSync(file, prebuiltSyncQueriesModule());
    const prebuilt = (await import(pathToFileURL(file).href)) as { SYNC_QUERIES: typeof SYNC_QUERIES };
    // The rules are the same functions: the generated module names them in QUERY_RULES.
    expect(prebuilt.SYNC_QUERIES).toStrictEqual(SYNC_QUERIES);
    expect(Object.keys(prebuilt.SYNC_QUERIES)).toEqual(Object.keys(ENDPOINTS));
  });

  it('answers each path with its definition’s own work and cache policy', () => {
    for (const [path, answer] of Object.entries(SYNC_ANSWERS)) {
      expect(ENDPOINTS[path]?.run).toBe(answer.run);
      expect(ENDPOINTS[path]?.cache).toBe(answer.cache);
    }
    // Only the OpenAPI document needs the definitions for every request.
    expect(Object.keys(ENDPOINTS).filter((path) => !(path in SYNC_ANSWERS))).toEqual(['/openapi.json']);
  });
});
