/**
 * One source for the service version (issue #18): the changelog's newest release is what `/health`,
 * the MCP `serverInfo`, package.json (and its lockfile) and server.json say; the REST API version (the
 * OpenAPI `info.version`) is its own and changes only with the REST contract (1.2.0 since release 1.7.0 added the data endpoints, 1.3.0 since release 1.7.2 bounded the segment list by limit alone, 1.4.0 since release 1.8.0 added forecast_unreachable and answers without the wind). Every release on
 * the changelog page is in RELEASES, in the same order, dated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_VERSION, RELEASES, SERVICE_VERSION } from '../../src/core/service-facts.ts';
import { SERVER_INFO } from '../../src/mcp/build-server.ts';
import { createApiHandler } from '../../src/rest/handler.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const json = (path: string) => JSON.parse(read(path)) as Record<string, unknown>;

describe('the service version', () => {
  it('is the newest release of the changelog, and what package.json, its lockfile and server.json say', () => {
    expect(SERVICE_VERSION).toBe(RELEASES[0]?.version);
    expect(json('package.json')['version']).toBe(SERVICE_VERSION);
    const lock = json('package-lock.json') as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect(lock.version).toBe(SERVICE_VERSION);
    expect(lock.packages['']?.version).toBe(SERVICE_VERSION);
    expect(json('server.json')['version']).toBe(SERVICE_VERSION);
  });

  it('is what /health and the MCP serverInfo report; the OpenAPI description keeps the API version', async () => {
    const handler = createApiHandler();
    const health = await handler(new Request('http://localhost/health'));
    expect(await health.json()).toEqual({ status: 'ok', version: SERVICE_VERSION, api_version: API_VERSION });
    expect(SERVER_INFO.version).toBe(SERVICE_VERSION);
    const openapi = (await (await handler(new Request('http://localhost/openapi.json'))).json()) as {
      info: { version: string };
    };
    expect(openapi.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe('1.4.0');
  });
});

describe('the changelog', () => {
  const page = read('src/pages/changelog.astro');
  const onPage = [...page.matchAll(/<Release version="([^"]+)">/g)].map((match) => match[1]);

  it('has one section per release, newest first, exactly the releases of RELEASES', () => {
    expect(onPage).toEqual(RELEASES.map((release) => release.version));
  });

  it('dates every release since 1.1.0, newest first, and numbers them in order', () => {
    const dated = RELEASES.filter((release) => release.version !== '1.0.0');
    for (const release of dated) expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const dates = dated.map((release) => release.date ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    const numbers = RELEASES.map((release) => release.version.split('.').map(Number));
    for (let i = 1; i < numbers.length; i++) {
      const [newer = [], older = []] = [numbers[i - 1], numbers[i]];
      const comparison = newer
        .map((part, k) => part - (older[k] ?? 0))
        .find((difference) => difference !== 0);
      expect(comparison, `${RELEASES[i - 1]?.version} after ${RELEASES[i]?.version}`).toBeGreaterThan(0);
    }
  });

  it('puts every entry under a release: no section outside one', () => {
    const outside = page
      .split(/<Release version="[^"]+">[\s\S]*?<\/Release>/)
      .join('')
      .match(/<ChangeEntry|<section|<h2|<h3/g);
    expect(outside).toBeNull();
  });
});
