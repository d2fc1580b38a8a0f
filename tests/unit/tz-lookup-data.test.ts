/**
 * The bundles' tz-lookup (`scripts/vercel/tz-lookup-data.ts`): its grid read
 * from the file beside the module gives every point the zone the package gives.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import tzLookup from '@photostructure/tz-lookup';
import { describe, expect, it } from 'vitest';
import { TZ_LOOKUP_DATA, tzLookupParts } from '../../scripts/vercel/tz-lookup-data.ts';

const source = readFileSync(createRequire(import.meta.url).resolve('@photostructure/tz-lookup'), 'utf8');

describe("tz-lookup's grid read from a file in the bundles", () => {
  it('names the zone the package names, everywhere', async () => {
    const { data, module } = tzLookupParts(source);
    const dir = mkdtempSync(join(tmpdir(), 'tz-lookup-data-'));
    writeFileSync(join(dir, TZ_LOOKUP_DATA), data, 'latin1');
    writeFileSync(join(dir, 'tz.mjs'), module);
    const bundled = ((await import(pathToFileURL(join(dir, 'tz.mjs')).href)) as { default: typeof tzLookup })
      .default;
    for (let lat = -89.5; lat < 90; lat += 1.7)
      for (let lon = -179.5; lon < 180; lon += 2.3) expect(bundled(lat, lon)).toBe(tzLookup(lat, lon));
    expect(bundled(45.06, 6.03)).toBe('Europe/Paris');
    expect(() => bundled(91, 0)).toThrow(/invalid coordinates/);
  });

  it('refuses a package of another shape', () => {
    expect(() => tzLookupParts(`module.exports = () => 'UTC';`)).toThrow(/shape/);
  });
});
