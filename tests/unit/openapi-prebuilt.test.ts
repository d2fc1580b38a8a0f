import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prebuiltOpenApiModule } from '../../scripts/vercel/bundle-functions.ts';
import { openApiDocument } from '../../src/rest/openapi.ts';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { resolveUrls } from '../../src/http/public-urls.ts';

interface Prebuilt {
  openApiDocument: typeof openApiDocument;
}

async function loadPrebuilt(): Promise<Prebuilt> {
  const file = join(mkdtempSync(join(tmpdir(), 'wos-openapi-')), 'openapi.mjs');
  writeFileSync(file, prebuiltOpenApiModule());
  return (await import(pathToFileURL(file).href)) as Prebuilt;
}

describe('the OpenAPI document prebuilt for the Vercel functions', () => {
  const deployments = [
    resolveUrls({}, new URL('https://wind-on-segment.vercel.app/openapi.json')),
    resolveUrls(
      { baseUrl: 'https://api.example.org', docsUrl: 'https://docs.example.org/guide' },
      new URL('https://preview-123.vercel.app/openapi.json'),
    ),
    resolveUrls({}, new URL('http://127.0.0.1:4321/openapi.json')),
  ];

  it.each(deployments)('answers exactly as src/rest/openapi.ts for $base', async (urls) => {
    const prebuilt = await loadPrebuilt();
    // Same text, so the same keys in the same order, not only equal values.
    expect(JSON.stringify(prebuilt.openApiDocument(ENDPOINTS, urls))).toBe(
      JSON.stringify(openApiDocument(ENDPOINTS, urls)),
    );
  });

  it('keeps one document per deployment, not one per call', async () => {
    const prebuilt = await loadPrebuilt();
    const [first, second] = deployments;
    if (!first || !second) throw new Error('two deployments expected');
    const a = prebuilt.openApiDocument(ENDPOINTS, first);
    expect(prebuilt.openApiDocument(ENDPOINTS, first)).toBe(a);
    expect(prebuilt.openApiDocument(ENDPOINTS, second).servers).toEqual([
      { url: 'https://api.example.org', description: 'This deployment' },
    ]);
    expect(a.servers).toEqual([
      { url: 'https://wind-on-segment.vercel.app', description: 'This deployment' },
    ]);
  });
});
