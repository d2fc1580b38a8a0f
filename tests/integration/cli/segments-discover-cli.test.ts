/**
 * `npm run segments:discover` as an operator runs it, in a child process: offline discovery from the
 * shipped files into a GeoJSON catalog that validates and packs, the ODbL export, and one line on stderr
 * with a non-zero exit for every mistake.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSegmentCollection } from '../../../src/data/segments/geojson.ts';
import { loadEmbeddedSegments } from '../../../src/data/segments/load.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wos-discover-cli-'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/segments-discover.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WOS_DISCOVERY: 'seed' },
    timeout: 120_000,
  });

describe('npm run segments:discover', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('discovers offline from an OSM file and SRTM tiles into a catalog that validates', () => {
    const out = join(dir, 'andorra.geojson');
    const done = run('--osm', 'seed/osm/andorra.osm.pbf', '--dem', 'seed/dem', '--out', out);
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/andorra\.osm\.pbf: \d+ segment\(s\) from \d+ roads/);
    expect(done.stdout).toMatch(/© OpenStreetMap contributors, ODbL 1\.0/);
    const segments = parseSegmentCollection(JSON.parse(readFileSync(out, 'utf8')));
    // The same rules as the build's seed catalog: the same climbs.
    const shipped = loadEmbeddedSegments().filter((s) => s.provenance?.osmSource.includes('andorra'));
    expect(segments.map((s) => s.id).sort()).toEqual(shipped.map((s) => s.id).sort());
  });

  it('exports every discovered segment as GeoJSON under the ODbL', () => {
    const out = join(dir, 'export.geojson');
    const done = run('--export', out);
    expect(done.status).toBe(0);
    const segments = parseSegmentCollection(JSON.parse(readFileSync(out, 'utf8')));
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) {
      expect(segment.license).toBe('ODbL-1.0');
      expect(segment.provenance?.osmWayIds.length).toBeGreaterThan(0);
    }
  });

  it.each([
    [['--osm', 'seed/osm/andorra.osm.pbf'], 2, /--osm needs --dem DIR/],
    [[], 2, /give --place, --osm with --dem, or --export/],
    [['--place', 'Girona', '--radius-km', '500'], 2, /--radius-km must be a number from 1 to 100/],
    [['--osm', join(dir, 'missing.osm.pbf'), '--dem', 'seed/dem'], 1, /missing\.osm\.pbf/],
    [['--bogus'], 2, /bogus/],
  ])('refuses %j in one line with exit %i', (args, status, message) => {
    const done = run(...args);
    expect(done.status).toBe(status);
    expect(done.stderr.trim().split('\n')).toHaveLength(1);
    expect(done.stderr).toMatch(message);
  });
});
