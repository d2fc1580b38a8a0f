/**
 * `server.json`, the entry for the official MCP Registry. No package we can
 * install ships the registry's published JSON Schema, so this checks the
 * fields its documentation (server.json reference, schema 2025-12-11) gives
 * for a remote server: the same names, types, lengths and patterns, read
 * strictly so a misspelt field fails here rather than at publishing. Then
 * that the entry says what this repository serves: its version, its public
 * site, its two MCP addresses, an icon and a page that exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RIDER_RESOURCE_PATH } from '../../src/rider/access-policy.ts';

const root = new URL('../../', import.meta.url);
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

/** A published schema version: `https://static.modelcontextprotocol.io/schemas/<date>/server.schema.json`. */
const SCHEMA_URL =
  /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/;
/** A version range or tag the registry refuses in place of one version. */
const VERSION_RANGE = /^[~^<>=*]|(^|\.)(x|\*)($|\.)|^latest$|\s/;

const HttpsUrlSchema = z.url({ protocol: /^https$/ });

const RegistryIconSchema = z.strictObject({
  src: HttpsUrlSchema.max(255),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp']).optional(),
  sizes: z.array(z.string().regex(/^(\d+x\d+|any)$/)).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});

const RegistryRemoteSchema = z.strictObject({
  type: z.enum(['streamable-http', 'sse']),
  url: HttpsUrlSchema,
  headers: z.array(z.object({ name: z.string() })).optional(),
});

const RegistryServerSchema = z.strictObject({
  $schema: z.string().regex(SCHEMA_URL),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  title: z.string().min(1).max(100).optional(),
  description: z.string().min(1).max(100),
  version: z
    .string()
    .min(1)
    .max(255)
    .refine((v) => !VERSION_RANGE.test(v), 'one version, not a range'),
  websiteUrl: z.url().optional(),
  repository: z
    .strictObject({ url: z.url(), source: z.string(), subfolder: z.string().optional() })
    .optional(),
  icons: z.array(RegistryIconSchema).optional(),
  remotes: z.array(RegistryRemoteSchema).min(1),
});

/** The site's default public origin, as astro.config.mjs names it. */
function siteOrigin(): string {
  const config = readFileSync(new URL('astro.config.mjs', root), 'utf8');
  const site = /site:\s*process\.env\['WOS_SITE_URL'\]\s*\?\?\s*'([^']+)'/.exec(config)?.[1];
  if (!site) throw new Error('astro.config.mjs names no default site');
  return new URL(site).origin;
}

describe('server.json', () => {
  const entry = RegistryServerSchema.parse(read('server.json'));
  const origin = siteOrigin();

  it('holds the documented fields of a remote server, and nothing else', () => {
    expect(entry.remotes.every((remote) => remote.type === 'streamable-http')).toBe(true);
    expect(entry.description).not.toMatch(/\s$/);
  });

  it('refuses what the registry refuses, so the check above can fail', () => {
    const valid = read('server.json') as Record<string, unknown>;
    const broken: Record<string, unknown>[] = [
      { ...valid, name: 'no-slash' },
      { ...valid, name: 'two/slashes/here' },
      { ...valid, description: 'x'.repeat(101) },
      { ...valid, version: '^1.1.0' },
      { ...valid, version: 'latest' },
      { ...valid, remotes: [{ type: 'stdio', url: `${origin}/mcp` }] },
      { ...valid, remotes: [{ type: 'streamable-http', url: 'http://insecure.example/mcp' }] },
      { ...valid, website_url: valid['websiteUrl'] },
      { ...valid, $schema: 'https://example.org/server.schema.json' },
    ];
    for (const candidate of broken) expect(RegistryServerSchema.safeParse(candidate).success).toBe(false);
  });

  it("names the site's own namespace, reversed, so the registry can verify it on that domain", () => {
    const host = new URL(origin).hostname;
    const [namespace] = entry.name.split('/');
    expect(namespace).toBe(host.split('.').reverse().join('.'));
  });

  it('lists the public and the rider MCP addresses of the site', () => {
    expect(entry.remotes.map((remote) => remote.url)).toEqual([
      `${origin}/mcp`,
      `${origin}${RIDER_RESOURCE_PATH}`,
    ]);
  });

  it('carries the version of this release and points to pages and files that exist', () => {
    expect(entry.version).toBe((read('package.json') as { version: string }).version);
    const website = new URL(entry.websiteUrl ?? '');
    expect(website.origin).toBe(origin);
    expect(existsSync(new URL(`src/pages${website.pathname}.astro`, root))).toBe(true);
    for (const icon of entry.icons ?? []) {
      const src = new URL(icon.src);
      expect(src.origin).toBe(origin);
      expect(existsSync(new URL(`public${src.pathname}`, root))).toBe(true);
    }
  });
});
