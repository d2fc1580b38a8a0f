import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ServerRequest } from 'srvx';
import { describe, expect, it } from 'vitest';
import { builtOrigin, ownOriginDocs, withOrigin } from '../../src/server/own-origin-docs.ts';

const BUILT = 'https://wind-on-segment.vercel.app';
const PAGE =
  `<html><head><link rel="canonical" href="${BUILT}/docs"><meta property="og:image" content="${BUILT}/og.png"></head>` +
  `<body><main><pre>curl '${BUILT}/v1/tailwind?x=1'</pre><p>${BUILT}/mcp</p></main></body></html>`;

function site(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wos-docs-'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'index.html'), PAGE);
  return dir;
}

const passed = new Response('static');
const next = () => passed;
const ask = (
  middleware: ReturnType<typeof ownOriginDocs>,
  url: string,
  headers: Record<string, string> = {},
) => middleware(new Request(url, { headers }) as unknown as ServerRequest, next);

describe('the guides served at their own origin', () => {
  it('names the origin asked at inside <main> only, keeping the canonical link and preview image', () => {
    expect(builtOrigin(PAGE)).toBe(BUILT);
    const page = withOrigin(PAGE, BUILT, 'http://localhost:3000');
    expect(page).toContain(`curl 'http://localhost:3000/v1/tailwind?x=1'`);
    expect(page).toContain('<p>http://localhost:3000/mcp</p>');
    expect(page).toContain(`<link rel="canonical" href="${BUILT}/docs">`);
    expect(page).toContain(`content="${BUILT}/og.png"`);
  });

  it('keeps the deployed address where an element is marked data-as-built', () => {
    const html =
      '<main><code>https://site.example/mcp</code> or <code data-as-built>https://site.example/mcp</code> ' +
      'then https://site.example/docs</main>';
    expect(withOrigin(html, 'https://site.example', 'http://127.0.0.1:3000')).toBe(
      '<main><code>http://127.0.0.1:3000/mcp</code> or <code data-as-built>https://site.example/mcp</code> ' +
        'then http://127.0.0.1:3000/docs</main>',
    );
  });

  it('serves the page as built at its built origin, and rewritten with a validator and gzip elsewhere', async () => {
    const middleware = ownOriginDocs(site());
    expect(await ask(middleware, `${BUILT}/docs`)).toBe(passed);
    expect(await ask(middleware, 'http://localhost:3000/docs/nope/deeper')).toBe(passed);
    const plain = await ask(middleware, 'http://localhost:3000/docs/');
    const text = await plain.text();
    expect(text).toContain(`curl 'http://localhost:3000/v1/tailwind?x=1'`);
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const etag = plain.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await ask(middleware, 'http://localhost:3000/docs', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const zipped = await ask(middleware, 'http://localhost:3000/docs', { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(text);
    const elsewhere = await ask(middleware, 'http://10.0.0.7:8080/docs');
    expect(await elsewhere.text()).toContain('http://10.0.0.7:8080/mcp');
    expect(elsewhere.headers.get('etag')).not.toBe(etag);
  });
});
