import { loadEmbeddedSegments } from '../../../src/data/segments/load.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src/core/bearing.ts';
import {
  ELEVATION_THRESHOLD_M,
  parseGpx,
  smoothedGainM,
  summarizeTrack,
} from '../../../src/data/segments/gpx-track.ts';
import {
  DEFAULT_IMPORT_LICENSE,
  describeImport,
  importSegmentFile,
} from '../../../src/data/segments/import.ts';
import { slugify } from '../../../src/data/segments/slug.ts';
import { loadSegmentsFile } from '../../../src/data/segments/load.ts';
import { openPackedCatalog } from '../../../src/data/segments/packed-catalog.ts';
import { segmentsFromEnv } from '../../support/settings.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/segments/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NOW = new Date('2024-05-01T10:00:00Z');

function haversineM(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

function tempOut(): string {
  return join(mkdtempSync(join(tmpdir(), 'wos-import-')), 'segments.local.geojson');
}

describe('parseGpx', () => {
  it('reads track points in any attribute order and quoting, across segments, ignoring comments and waypoints', () => {
    const track = parseGpx(readFileSync(`${FIXTURES}climb.gpx`, 'utf8'));
    expect(track.name).toBe("Côte d'Essai & Co");
    expect(track.points).toEqual([
      { lat: 45.0561, lon: 6.0418, ele: 740 },
      { lat: 45.0598, lon: 6.0462, ele: 801.2 },
      { lat: 45.061, lon: 6.0415, ele: 850.4 },
      { lat: 45.0633, lon: 6.0458, ele: 849 },
      { lat: 45.0648, lon: 6.041, ele: 905.5 },
      { lat: 45.0668, lon: 6.045, ele: 960 },
    ]);
  });

  it('falls back to route points, with namespace prefixes and points lacking elevation', () => {
    const route = parseGpx(readFileSync(`${FIXTURES}route.gpx`, 'utf8'));
    expect(route.name).toBe('Planned climb');
    expect(route.points).toEqual([
      { lat: 46.5286, lon: 10.4528, ele: 2758 },
      { lat: 46.53, lon: 10.456, ele: 2700 },
      { lat: 46.535, lon: 10.458 },
    ]);
  });

  it('uses the metadata name when the track has none, and rounds to 5 decimals', () => {
    const text =
      '<gpx><metadata><name>Meta</name></metadata><trk><trkseg>' +
      '<trkpt lat="1.123456789" lon="2"/><trkpt lat="1.2" lon="2.000004"/></trkseg></trk></gpx>';
    expect(parseGpx(text)).toEqual({
      name: 'Meta',
      points: [
        { lat: 1.12346, lon: 2 },
        { lat: 1.2, lon: 2 },
      ],
    });
  });

  it('explains what is wrong with a broken file', () => {
    expect(() => parseGpx('{"type":"FeatureCollection"}')).toThrow(/Not a GPX file/);
    expect(() => parseGpx('<gpx><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>')).toThrow(
      /has 1 point; a route needs at least 2/,
    );
    expect(() => parseGpx(readFileSync(`${FIXTURES}bad-latitude.gpx`, 'utf8'))).toThrow(
      /GPX trkpt 2 has an invalid lat "95\.5"/,
    );
    expect(() => parseGpx('<gpx><rte><rtept lat="1"/><rtept lat="1" lon="2"/></rte></gpx>')).toThrow(
      /GPX rtept 1 has no lon attribute/,
    );
    // The operator import reads with the route reader: a file declaring entities is refused by name.
    expect(() =>
      parseGpx(
        '<!DOCTYPE gpx [<!ENTITY x "y">]><gpx><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>',
      ),
    ).toThrow(/declares a DOCTYPE on line 1/);
  });
});

describe('summarizeTrack', () => {
  it('measures distance along the points, smoothed climbing and net grade', () => {
    const { points } = parseGpx(readFileSync(`${FIXTURES}climb.gpx`, 'utf8'));
    const summary = summarizeTrack(points);
    const along = points.slice(1).reduce((sum, p, i) => sum + haversineM(points[i] ?? p, p), 0);
    expect(summary.distanceM).toBe(Math.round(along));
    // 740 → 850.4 (+110.4), a 1.4 m dip ignored, then → 960 (+109.6).
    expect(summary.elevationGainM).toBe(220);
    expect(summary.averageGradePct).toBe(Math.round(((960 - 740) / along) * 1000) / 10);
    expect(summary.polyline).toHaveLength(6);
    expect(summary.profile[0]).toEqual({ distanceM: 0, elevationM: 740 });
    expect(summary.profile.at(-1)).toEqual({ distanceM: summary.distanceM, elevationM: 960 });
  });

  it('takes the grade over the stretch that has elevations', () => {
    const { points } = parseGpx(readFileSync(`${FIXTURES}route.gpx`, 'utf8'));
    const summary = summarizeTrack(points);
    const span = haversineM(points[0] ?? { lat: 0, lon: 0 }, points[1] ?? { lat: 0, lon: 0 });
    expect(summary.averageGradePct).toBe(Math.round((-58 / span) * 1000) / 10);
    expect(summary.distanceM).toBeGreaterThan(span + 500);
    expect(summary.elevationGainM).toBe(0);
  });

  it('refuses tracks without elevations or without length', () => {
    const { points } = parseGpx(readFileSync(`${FIXTURES}no-elevation.gpx`, 'utf8'));
    expect(() => summarizeTrack(points)).toThrow(/no <ele> elevations/);
    expect(() =>
      summarizeTrack([
        { lat: 1, lon: 1, ele: 1 },
        { lat: 1, lon: 1, ele: 5 },
      ]),
    ).toThrow(/same place/);
  });

  it('smooths: jitter under the threshold adds nothing, a steady climb counts in full', () => {
    expect(smoothedGainM([100, 101, 100, 102, 100.5, 101.9, 100])).toBe(0);
    expect(smoothedGainM(Array.from({ length: 100 }, (_, i) => i))).toBe(99);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -500, max: 5000, noNaN: true }), { minLength: 1, maxLength: 200 }),
        (eles) => {
          const gain = smoothedGainM(eles);
          const rawGain = eles.slice(1).reduce((sum, e, i) => sum + Math.max(0, e - (eles[i] ?? e)), 0);
          const net = (eles.at(-1) ?? 0) - (eles[0] ?? 0);
          expect(gain).toBeGreaterThanOrEqual(0);
          expect(gain).toBeLessThanOrEqual(rawGain + 1e-6);
          expect(gain).toBeGreaterThanOrEqual(net - ELEVATION_THRESHOLD_M - 1e-6);
        },
      ),
    );
  });
});

describe('importSegmentFile', () => {
  it('converts a GPX, writes a new catalog the server can load, and refuses the same id twice', () => {
    const out = tempOut();
    const report = importSegmentFile(`${FIXTURES}climb.gpx`, { out, replace: true, country: 'fr', now: NOW });
    expect(report.created).toBe(true);
    expect(report.total).toBe(1);
    const [added] = report.added;
    expect(added?.id).toBe('fr-cote-d-essai-co');
    expect(added?.name).toBe("Côte d'Essai & Co");
    expect(added?.popularityRank).toBe(1);
    expect(added?.source).toBe('Imported by the operator from climb.gpx on 2024-05-01');
    expect(added?.license).toBe(DEFAULT_IMPORT_LICENSE);
    expect(segmentsFromEnv({ WOS_SEGMENTS_FILE: out })).toEqual(report.added);

    const before = readFileSync(out, 'utf8');
    expect(() =>
      importSegmentFile(`${FIXTURES}climb.gpx`, { out, replace: true, country: 'FR', now: NOW }),
    ).toThrow(/Not imported: id "fr-cote-d-essai-co" already in .*segments\.local\.geojson/);
    expect(readFileSync(out, 'utf8')).toBe(before);

    const second = importSegmentFile(`${FIXTURES}route.gpx`, {
      out,
      country: 'IT',
      name: 'Stelvio top',
      license: 'CC-BY-4.0',
      now: NOW,
    });
    expect(second.created).toBe(false);
    expect(second.total).toBe(2);
    expect(second.added[0]).toMatchObject({
      id: 'it-stelvio-top',
      aliases: ['Planned climb'],
      popularityRank: 2,
      license: 'CC-BY-4.0',
      countryCode: 'IT',
    });
    expect(loadSegmentsFile(out).map((s) => s.id)).toEqual(['fr-cote-d-essai-co', 'it-stelvio-top']);
    expect(describeImport(second)).toMatch(
      /^Updated .*: added 1 segment\(s\), 2 in the file; it extends the catalog already in it\.\n {2}\+ it-stelvio-top: Stelvio top \(IT\), 0\.9 km, -20 %, 0 m climbing, 3 points, rank 2\nPacked index: .*segments\.local\.segidx \(after editing the catalog by hand: npm run segments:import -- --pack .*segments\.local\.geojson\)\nServe it with: WOS_SEGMENTS_FILE=.*segments\.local\.segidx npm start$/,
    );
    // The index the import packed answers as the catalog file does, without validating at load.
    const index = openPackedCatalog(second.indexPath);
    expect(index.get('it-stelvio-top')).toEqual(loadSegmentsFile(out).find((s) => s.id === 'it-stelvio-top'));
    expect(index.size).toBe(2);
    index.close();
  });

  it('validates and merges a GeoJSON file, filling in only a missing source and licence', () => {
    const out = tempOut();
    importSegmentFile(`${FIXTURES}climb.gpx`, {
      out,
      replace: true,
      country: 'FR',
      id: 'fr-mine',
      rank: 3,
      now: NOW,
    });
    const report = importSegmentFile(`${FIXTURES}extra.geojson`, { out, replace: true, now: NOW });
    expect(report.total).toBe(3);
    const [a, b] = report.added;
    expect(a).toMatchObject({
      id: 'fr-cote-test-a',
      aliases: [],
      source: 'Imported by the operator from extra.geojson on 2024-05-01',
      license: DEFAULT_IMPORT_LICENSE,
    });
    expect(b).toMatchObject({ id: 'fr-cote-test-b', source: 'Surveyed by the club', license: 'CC-BY-4.0' });
    expect(loadSegmentsFile(out).map((s) => [s.id, s.popularityRank])).toEqual([
      ['fr-mine', 3],
      ['fr-cote-test-a', 10],
      ['fr-cote-test-b', 11],
    ]);
    expect(() => importSegmentFile(`${FIXTURES}extra.geojson`, { out, replace: true, now: NOW })).toThrow(
      /id "fr-cote-test-a", "fr-cote-test-b" already in/,
    );
  });

  it('refuses bad input clearly and leaves the catalog untouched', () => {
    const out = tempOut();
    expect(() => importSegmentFile(`${FIXTURES}climb.gpx`, { out })).toThrow(/needs --country XX/);
    expect(() =>
      importSegmentFile(`${FIXTURES}extra.geojson`, { out, replace: true, country: 'FR', rank: 2 }),
    ).toThrow(/--country, --rank only apply to a GPX import/);
    expect(() => importSegmentFile(`${FIXTURES}malformed.geojson`, { out })).toThrow(
      /Invalid .*malformed\.geojson:\n {2}- feature 1 \(id "fr-one-point"\)/,
    );
    expect(() =>
      importSegmentFile(`${FIXTURES}no-elevation.gpx`, { out, replace: true, country: 'FR' }),
    ).toThrow(/no <ele>/);
    expect(() =>
      importSegmentFile(`${FIXTURES}climb.gpx`, { out, replace: true, country: 'France' }),
    ).toThrow(/properties\.country/);
    expect(() => importSegmentFile(`${FIXTURES}notes.txt`, { out })).toThrow(
      /expected a \.gpx, \.geojson or \.json/,
    );
    expect(() => importSegmentFile(`${FIXTURES}missing.gpx`, { out, replace: true, country: 'FR' })).toThrow(
      /Cannot read input/,
    );
    expect(existsSync(out)).toBe(false);

    writeFileSync(out, '{"type":"FeatureCollection","features":[{"type":"Feature"}]}');
    expect(() => importSegmentFile(`${FIXTURES}climb.gpx`, { out, replace: true, country: 'FR' })).toThrow(
      /Invalid existing catalog .*:\n {2}- feature 0 geometry: .*\n {2}- feature 0 properties: /,
    );
  });

  it('extends the built-in catalog by default, and says so', () => {
    const out = tempOut();
    const builtIn = loadEmbeddedSegments();
    const report = importSegmentFile(`${FIXTURES}climb.gpx`, { out, country: 'FR', now: NOW });
    expect(report).toMatchObject({ created: true, builtIn: builtIn.length, total: builtIn.length + 1 });
    const served = segmentsFromEnv({ WOS_SEGMENTS_FILE: out });
    expect(served.map((s) => s.id)).toContain('fr-alpe-d-huez');
    expect(served.map((s) => s.id)).toContain(report.added[0]?.id);
    expect(report.added[0]?.popularityRank).toBe(Math.max(...builtIn.map((s) => s.popularityRank)) + 1);
    expect(describeImport(report)).toContain(
      `in the file; it extends the built-in catalog (its ${builtIn.length} segments are in the file).`,
    );
    // The next import extends the file, built-in segments and all.
    const again = importSegmentFile(`${FIXTURES}route.gpx`, { out, country: 'IT', now: NOW });
    expect(again).toMatchObject({ created: false, builtIn: 0, total: builtIn.length + 2 });
    expect(describeImport(again)).toContain('it extends the catalog already in it.');
  });

  it('refuses a loop: as a segment its tailwind alert could never fire', () => {
    const out = tempOut();
    const loop = fileURLToPath(new URL('../../fixtures/routes/loop.gpx', import.meta.url));
    expect(() => importSegmentFile(loop, { out, country: 'FR', now: NOW })).toThrow(
      /Not imported: "fr-lake-loop" ends where it starts .*could never fire/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('makes slugs from folded names', () => {
    expect(slugify('FR', "Col d'Ornon")).toBe('fr-col-d-ornon');
    expect(slugify('de', 'Großglockner Straße')).toBe('de-grossglockner-strasse');
    expect(slugify('JP', '富士')).toBe('jp');
  });
});

describe('npm run segments:import', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['scripts/segments-import.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

  it('imports, prints what it did, and exits non-zero on errors and bad usage', () => {
    const out = tempOut();
    const ok = run(
      `${FIXTURES}climb.gpx`,
      '--out',
      out,
      '--country',
      'fr',
      '--name',
      'Test climb',
      '--rank',
      '4',
      '--replace',
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(
      `Created ${out}: added 1 segment(s), 1 in the file; it replaces the built-in catalog`,
    );
    expect(ok.stdout).toContain('+ fr-test-climb: Test climb (FR)');
    const again = run(`${FIXTURES}climb.gpx`, '--out', out, '--country', 'fr', '--name', 'Test climb');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already in/);
    expect(run('--out', out).status).toBe(2);
    expect(run(`${FIXTURES}climb.gpx`, '--rank', 'first').stderr).toMatch(/--rank must be a whole number/);
  });

  it('--pack validates a whole catalog into an index, or refuses it and writes nothing', () => {
    const index = join(mkdtempSync(join(tmpdir(), 'wos-pack-')), 'embedded.segidx');
    const ok = run('--pack', 'src/data/segments/catalog.geojson', '--out', index);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(
      /^Packed \d+ segment\(s\), \d+ points, into .*embedded\.segidx \([\d.]+ MB\) in [\d.]+ s\./,
    );
    const packed = openPackedCatalog(index);
    expect(packed.get('fr-alpe-d-huez')?.name).toBe("Alpe d'Huez (from Le Bourg-d'Oisans)");
    packed.close();

    const refused = `${index}.refused`;
    const bad = run('--pack', `${FIXTURES}malformed.geojson`, '--out', refused);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(
      /^Not packed: invalid catalog .*malformed\.geojson:\n {2}- feature 1 \(id "fr-one-point"\)/,
    );
    expect(existsSync(refused)).toBe(false);
  });
});
