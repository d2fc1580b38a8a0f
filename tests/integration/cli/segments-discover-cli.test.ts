/**
 * `npm run segments:discover` as an operator runs it, in a child process: offline discovery from the
 * shipped files into a GeoJSON catalog that validates and packs, the ODbL export, and one line on stderr
 * with a non-zero exit for every mistake.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSegmentCollection } from '../../../src/data/segments/geojson.ts';
import { loadEmbeddedSegments } from '../../../src/data/segments/load.ts';
import { toolEnv } from '../../support/tool-env.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wos-discover-cli-'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['scripts/segments-discover.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...toolEnv, WOS_DISCOVERY: 'seed' },
    timeout: 120_000,
  });
/** The same into a SQLite store: blocks of one area each, in this thread, so a kill lands between areas. */
const INTO_STORE = [
  '--osm',
  'seed/osm/andorra.osm.pbf',
  '--dem',
  'seed/dem',
  '--into-store',
  '--block-nodes',
  '1000',
  '--workers',
  '0',
];
const storeEnv = (path: string) => ({
  ...toolEnv,
  WOS_DISCOVERY: 'seed',
  WOS_DATABASE_PATH: path,
  DATABASE_URL: '',
});

/** What a reader of the store sees of the build (the write times aside). */
function storeContent(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return {
      areas: db
        .prepare('select key, status, segment_count, osm_source, build from discovered_area order by key')
        .all(),
      segments: db.prepare('select id, area_key, feature from discovered_segment order by id').all(),
    };
  } finally {
    db.close();
  }
}

function areasIn(path: string): number {
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      return Number((db.prepare('select count(*) as n from discovered_area').get() as { n: number }).n);
    } finally {
      db.close();
    }
  } catch {
    return 0; // not created yet, or busy
  }
}

describe('npm run segments:discover', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('discovers offline from an OSM file and SRTM tiles into a catalog that validates', () => {
    const out = join(dir, 'andorra.geojson');
    const done = run('--osm', 'seed/osm/andorra.osm.pbf', '--dem', 'seed/dem', '--out', out);
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(
      /andorra\.osm\.pbf: \d+ areas in \d+ blocks, [\d,]+ segments \(\d+ climbs, \d+ stretches\) from [\d,]+ roads/,
    );
    expect(done.stdout).toMatch(/CPU [\d.]+ s, peak RSS \d+ MB/);
    // Not on a terminal: plain progress lines, no bar.
    expect(done.stdout).toMatch(/^discovering areas: 100 %, 4\/4 areas, [\d,]+ segments/m);
    expect(done.stdout).not.toContain('\r');
    expect(done.stdout).toMatch(/© OpenStreetMap contributors, ODbL 1\.0/);
    const segments = parseSegmentCollection(JSON.parse(readFileSync(out, 'utf8')));
    // The same rules as the build's seed catalog: the same climbs.
    const shipped = loadEmbeddedSegments().filter((s) => s.provenance?.osmSource.includes('andorra'));
    expect(segments.map((s) => s.id).sort()).toEqual(shipped.map((s) => s.id).sort());
  });

  it('resumes a build killed halfway into the store, ending where an uninterrupted one ends', async () => {
    const whole = join(dir, 'whole.sqlite');
    const first = spawnSync(process.execPath, ['scripts/segments-discover.ts', ...INTO_STORE], {
      cwd: ROOT,
      encoding: 'utf8',
      env: storeEnv(whole),
      timeout: 120_000,
    });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const uninterrupted = storeContent(whole);
    expect(uninterrupted.areas.length).toBe(4);

    const killed = join(dir, 'killed.sqlite');
    const child = spawn(process.execPath, ['scripts/segments-discover.ts', ...INTO_STORE], {
      cwd: ROOT,
      env: storeEnv(killed),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // What it said if it ended on its own before its first area (a failure, said in the assertion).
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += String(chunk)));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // Killed (no chance to clean up) as soon as its first area is committed.
    while (areasIn(killed) === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await exited;
    const before = areasIn(killed);
    expect(before, said).toBeGreaterThan(0);
    expect(before).toBeLessThan(4);

    const again = spawnSync(process.execPath, ['scripts/segments-discover.ts', ...INTO_STORE], {
      cwd: ROOT,
      encoding: 'utf8',
      env: storeEnv(killed),
      timeout: 120_000,
    });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`4 areas (${before} written before, skipped)`);
    const resumed = storeContent(killed);
    expect(resumed).toEqual(uninterrupted);
  }, 120_000);

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
    [
      ['--osm', 'seed/osm/andorra.osm.pbf', '--dem', 'seed/dem', '--workers', 'two'],
      2,
      /--workers must be a whole number/,
    ],
    [
      ['--osm', 'seed/osm/andorra.osm.pbf', '--dem', 'seed/dem', '--out', 'x.geojson', '--into-store'],
      2,
      /not both/,
    ],
    [['--osm', join(dir, 'missing.osm.pbf'), '--dem', 'seed/dem'], 1, /missing\.osm\.pbf/],
    [['--bogus'], 2, /bogus/],
  ])('refuses %j in one line with exit %i', (args, status, message) => {
    const done = run(...args);
    expect(done.status).toBe(status);
    expect(done.stderr.trim().split('\n')).toHaveLength(1);
    expect(done.stderr).toMatch(message);
  });
});
