import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { generateSegments } from '../support/synthetic-segments.ts';
import {
  parseSegmentCollection,
  SegmentCatalogError,
  segmentToFeature,
} from '../../src/data/segments/geojson.ts';
import { DISCOVERED_RANK_BASE } from '../../src/data/discovery/segment-records.ts';
import {
  loadEmbeddedSegments,
  loadHandTracedSegments,
  loadSegmentsFile,
} from '../../src/data/segments/load.ts';
import { segmentsFromEnv } from '../support/settings.ts';
import type { Segment } from '../../src/data/segments/types.ts';

const CATALOG_URL = new URL('../../src/data/segments/catalog.geojson', import.meta.url);
const FIXTURES = fileURLToPath(new URL('../fixtures/segments/', import.meta.url));

/** Independent oracle: the textbook haversine on the same 6371 km sphere. */
function haversineM(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

function lengthM(polyline: readonly LatLon[]): number {
  return polyline.slice(1).reduce((sum, p, i) => sum + haversineM(polyline[i] ?? p, p), 0);
}

function start(segment: Segment): LatLon {
  const first = segment.polyline[0];
  if (first === undefined) throw new Error(`${segment.id} has no points`);
  return first;
}

function segment(id: string, rank: number, at: LatLon, extra: Partial<Segment> = {}): Segment {
  return {
    id,
    name: id,
    aliases: [],
    countryCode: 'FR',
    polyline: [at, { lat: at.lat + 0.01, lon: at.lon }],
    distanceM: 1200,
    averageGradePct: 5,
    elevationGainM: 60,
    popularityRank: rank,
    source: 'test',
    license: 'CC0-1.0',
    ...extra,
  };
}

describe('the embedded catalog', () => {
  const segments = loadEmbeddedSegments();
  const handTraced = loadHandTracedSegments();
  const discovered = segments.filter((s) => s.provenance !== undefined);
  const raw = readFileSync(CATALOG_URL, 'utf8');

  it('parses, is cached, and holds at least 64 segments from every continent we promise', () => {
    expect(segments.length).toBeGreaterThanOrEqual(64);
    expect(loadEmbeddedSegments()).toBe(segments);
    const countries = new Set(segments.map((s) => s.countryCode));
    for (const cc of [
      'FR',
      'IT',
      'ES',
      'BE',
      'NL',
      'GB',
      'CH',
      'AT',
      'NO',
      'DE',
      'US',
      'CA',
      'AU',
      'NZ',
      'ZA',
      'JP',
      'TW',
      'CO',
    ]) {
      expect(countries, cc).toContain(cc);
    }
  });

  it('ranks the hand-traced entries 1..N exactly once each, discovered ones after, all with country-prefixed slugs', () => {
    const ranks = handTraced.map((s) => s.popularityRank).sort((a, b) => a - b);
    expect(ranks).toEqual(handTraced.map((_, i) => i + 1));
    for (const s of discovered) expect(s.popularityRank, s.id).toBeGreaterThanOrEqual(DISCOVERED_RANK_BASE);
    for (const s of segments) expect(s.id.startsWith(`${s.countryCode.toLowerCase()}-`), s.id).toBe(true);
  });

  it('holds the segments discovered from the shipped extracts, each with its provenance and ODbL', () => {
    expect(discovered.length).toBeGreaterThanOrEqual(5);
    expect(segments.length).toBe(handTraced.length + discovered.length);
    for (const s of discovered) {
      expect(s.license, s.id).toBe('ODbL-1.0');
      expect(s.source, s.id).toMatch(
        /^Found by wind-on-segment in OpenStreetMap data of \d{4} \(© OpenStreetMap contributors, ODbL 1\.0\) with heights from /,
      );
      expect(s.provenance?.osmWayIds.length, s.id).toBeGreaterThan(0);
      // The line is the road's own points: its length is the measured distance, give or take the simplification.
      const ratio = lengthM(s.polyline) / s.distanceM;
      expect(ratio, s.id).toBeGreaterThan(0.97);
      expect(ratio, s.id).toBeLessThan(1.01);
      expect(s.maxGradePct ?? 0, s.id).toBeGreaterThanOrEqual(s.averageGradePct);
    }
    // Both kinds come out of the shipped data: climbs, and flat or rolling stretches along the valleys.
    expect(discovered.some((s) => s.kind === 'stretch')).toBe(true);
  });

  it('has polylines whose length and span agree with the published distance', () => {
    for (const s of handTraced) {
      expect(s.polyline.length, s.id).toBeGreaterThanOrEqual(4);
      expect(s.polyline.length, s.id).toBeLessThanOrEqual(25);
      const ratio = lengthM(s.polyline) / s.distanceM;
      expect(ratio, `${s.id} traced length / distance`).toBeGreaterThanOrEqual(0.5);
      expect(ratio, `${s.id} traced length / distance`).toBeLessThanOrEqual(1.3);
      const last = s.polyline[s.polyline.length - 1] ?? start(s);
      expect(haversineM(start(s), last), `${s.id} start-end span`).toBeLessThan(s.distanceM);
    }
  });

  it('has figures that hang together: net rise from the grade never exceeds the climbing', () => {
    for (const s of segments) {
      // A climb rises; a stretch may run down as well as up, each direction its own segment, under 3 %.
      if (s.kind === 'stretch') expect(Math.abs(s.averageGradePct), s.id).toBeLessThan(3);
      else expect(s.averageGradePct, s.id).toBeGreaterThan(0);
      expect((s.averageGradePct / 100) * s.distanceM, s.id).toBeLessThanOrEqual(s.elevationGainM * 1.1 + 10);
    }
  });

  it('says honestly how each entry was made and never mentions Strava', () => {
    for (const s of handTraced) {
      expect(s.source, s.id).toMatch(/^Traced by hand by wind-on-segment/);
      expect(s.source, s.id).toContain('editorial judgement');
      expect(s.license).toBe('CC0-1.0');
    }
    expect(raw.toLowerCase()).not.toContain('strava');
    const decimals = [...raw.matchAll(/-?\d+\.(\d+)/g)].map((m) => m[1]?.length ?? 0);
    expect(Math.max(...decimals)).toBeLessThanOrEqual(5);
  });

  it("finds at least five segments within 25 km of Le Bourg-d'Oisans, most popular first", () => {
    const catalog = createSegmentCatalog(segments);
    for (const point of [
      { lat: 45.0548, lon: 6.0337 },
      { lat: 45.06, lon: 6.03 },
    ]) {
      const found = catalog.near(point, 25_000, 20);
      expect(found.length).toBeGreaterThanOrEqual(5);
      const ids = found.map((n) => n.segment.id);
      for (const id of ['fr-alpe-d-huez', 'fr-col-de-sarenne', 'fr-villard-reculas', 'fr-les-deux-alpes']) {
        expect(ids).toContain(id);
      }
      expect(ids.slice(0, 1)).toEqual(['fr-alpe-d-huez']);
      const ranks = found.map((n) => n.segment.popularityRank);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      for (const n of found) {
        expect(n.distanceM).toBeLessThanOrEqual(25_000);
        expect(Math.abs(n.distanceM - haversineM(point, start(n.segment)))).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('createSegmentCatalog', () => {
  const synthetic = generateSegments(3000, 7);
  const catalog = createSegmentCatalog(synthetic);
  const starts = synthetic.map(start);

  it('near() agrees with a brute-force haversine filter and sort', () => {
    const nearAStart = fc
      .record({
        index: fc.nat({ max: synthetic.length - 1 }),
        dLat: fc.double({ min: -1, max: 1, noNaN: true }),
        dLon: fc.double({ min: -1, max: 1, noNaN: true }),
      })
      .map(({ index, dLat, dLon }) => {
        const s = starts[index] ?? { lat: 0, lon: 0 };
        return { lat: Math.max(-90, Math.min(90, s.lat + dLat)), lon: s.lon + dLon };
      });
    const anywhere = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.oneof(nearAStart, anywhere),
        fc.double({ min: 0, max: 150_000, noNaN: true }),
        fc.integer({ min: 1, max: 60 }),
        (point, radiusM, limit) => {
          const withDistance = synthetic.map((s, i) => ({ s, d: haversineM(point, starts[i] ?? point) }));
          // A start within a micrometre of the edge may fall either way in floating point.
          fc.pre(withDistance.every(({ d }) => Math.abs(d - radiusM) > 1e-3));
          const expected = withDistance
            .filter(({ d }) => d <= radiusM)
            .sort((a, b) => a.s.popularityRank - b.s.popularityRank || a.d - b.d)
            .slice(0, limit);
          const actual = catalog.near(point, radiusM, limit);
          expect(actual.map((n) => n.segment.id)).toEqual(expected.map((e) => e.s.id));
          actual.forEach((n, i) =>
            expect(Math.abs(n.distanceM - (expected[i]?.d ?? NaN))).toBeLessThanOrEqual(0.51),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('breaks rank ties by distance, and handles the antimeridian, zero radius and bad limits', () => {
    const here = { lat: 10, lon: 179.995 };
    const small = createSegmentCatalog([
      segment('far', 1, { lat: 10.02, lon: 179.995 }),
      segment('near', 1, { lat: 10, lon: -179.999 }),
      segment('at', 2, here),
    ]);
    expect(small.near(here, 5_000, 10).map((n) => n.segment.id)).toEqual(['near', 'far', 'at']);
    expect(small.near({ lat: 10, lon: -179.99 }, 2_000, 10).map((n) => n.segment.id)).toEqual(['near', 'at']);
    expect(small.near(here, 0, 10)).toEqual([{ segment: small.get('at'), distanceM: 0 }]);
    expect(small.near(here, 5_000, 1).map((n) => n.segment.id)).toEqual(['near']);
    expect(small.near(here, 5_000, 0)).toEqual([]);
    expect(small.near(here, -1, 10)).toEqual([]);
    expect(small.near(here, Number.NaN, 10)).toEqual([]);
    expect(createSegmentCatalog([]).near(here, 1e7, 10)).toEqual([]);
  });

  it('gets by id, counts, and refuses duplicate ids', () => {
    expect(catalog.size).toBe(3000);
    expect(catalog.get('synthetic-42')?.popularityRank).toBe(42);
    expect(catalog.get('nope')).toBeUndefined();
    expect(() =>
      createSegmentCatalog([segment('x', 1, { lat: 0, lon: 0 }), segment('x', 2, { lat: 1, lon: 1 })]),
    ).toThrow(/Duplicate segment id "x"/);
  });

  it('findByName folds case, accents and punctuation on names and aliases, most popular first', () => {
    const named = createSegmentCatalog([
      segment('b', 5, { lat: 0, lon: 0 }, { name: 'Col du Test', aliases: ['Le Géant'] }),
      segment('a', 2, { lat: 1, lon: 1 }, { name: 'Mont Géant', aliases: ['le geant', 'LE GÉANT!'] }),
    ]);
    expect(named.findByName('  le  GEANT ').map((s) => s.id)).toEqual(['a', 'b']);
    expect(named.findByName('col-du-test').map((s) => s.id)).toEqual(['b']);
    expect(named.findByName('Col du')).toEqual([]);
    expect(named.findByName('')).toEqual([]);
    const result = named.findByName('le geant') as Segment[];
    result.pop();
    expect(named.findByName('le geant')).toHaveLength(2);
    const embedded = createSegmentCatalog(loadEmbeddedSegments());
    expect(embedded.findByName("L'ALPE D'HUEZ").map((s) => s.id)).toEqual(['fr-alpe-d-huez']);
    expect(embedded.findByName('mont ventoux').map((s) => s.id)).toEqual([
      'fr-mont-ventoux-bedoin',
      'fr-mont-ventoux-malaucene',
      'fr-mont-ventoux-sault',
    ]);
  });
});

describe('parseSegmentCollection', () => {
  it('round-trips generated segments through GeoJSON features', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 20 }), (seed, count) => {
        const segments = generateSegments(count, seed);
        const json = JSON.parse(
          JSON.stringify({ type: 'FeatureCollection', features: segments.map(segmentToFeature) }),
        );
        expect(parseSegmentCollection(json)).toEqual(segments);
      }),
      { numRuns: 50 },
    );
  });

  it('reports every problem at once, naming the feature index, id and field', () => {
    const json: unknown = JSON.parse(readFileSync(`${FIXTURES}malformed.geojson`, 'utf8'));
    let error: unknown;
    try {
      parseSegmentCollection(json);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SegmentCatalogError);
    const problems = (error as SegmentCatalogError).problems;
    expect(problems).toContainEqual(
      expect.stringMatching(/^feature 1 \(id "fr-one-point"\) properties\.country: .*ISO/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^feature 1 \(id "fr-one-point"\) properties\.distance_m: /),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^feature 1 \(id "fr-one-point"\) geometry\.coordinates: a segment needs at least 2 points/,
      ),
    );
    expect(problems).toContainEqual('feature 2 (id "fr-good"): duplicate id, already used by feature 0');
    expect(problems).toContainEqual(
      expect.stringMatching(/^feature 3 \(id "fr-out-of-range"\) geometry\.coordinates\.0\.1: /),
    );
    expect((error as Error).message).toMatch(/^Invalid segment catalog:\n {2}- feature 1/);
  });

  it('rejects what is not a FeatureCollection, and figures that contradict each other', () => {
    expect(() => parseSegmentCollection({ type: 'Feature' })).toThrow(/collection type: /);
    expect(() => parseSegmentCollection(null)).toThrow(SegmentCatalogError);
    const steep = segmentToFeature(
      segment('x', 1, { lat: 0, lon: 0 }, { averageGradePct: 20, elevationGainM: 60 }),
    );
    expect(() => parseSegmentCollection({ type: 'FeatureCollection', features: [steep] })).toThrow(
      /feature 0 \(id "x"\) properties\.average_grade_pct: 20 % over 1200 m rises 240 m/,
    );
    const samePlace = segmentToFeature(
      segment(
        'y',
        1,
        { lat: 0, lon: 0 },
        {
          polyline: [
            { lat: 1, lon: 1 },
            { lat: 1, lon: 1 },
          ],
        },
      ),
    );
    expect(() => parseSegmentCollection({ type: 'FeatureCollection', features: [samePlace] })).toThrow(
      /same place/,
    );
  });
});

describe('generateSegments', () => {
  it('is deterministic per seed and plausible', () => {
    const a = generateSegments(200, 3);
    expect(generateSegments(200, 3)).toEqual(a);
    expect(generateSegments(200, 4)).not.toEqual(a);
    a.forEach((s, i) => {
      expect(s.id).toBe(`synthetic-${i + 1}`);
      expect(s.polyline.length).toBeGreaterThanOrEqual(5);
      expect(s.polyline.length).toBeLessThanOrEqual(40);
      expect(s.source).toBe('Synthetic, generated for benchmarks');
      expect(Math.abs(lengthM(s.polyline) - s.distanceM)).toBeLessThanOrEqual(1);
    });
  });
});

describe('loading catalogs', () => {
  it('loads an operator file and picks it when WOS_SEGMENTS_FILE is set', () => {
    const extra = JSON.parse(readFileSync(`${FIXTURES}extra.geojson`, 'utf8')) as {
      features: { properties: object }[];
    };
    const features = extra.features.map((f) => ({
      ...f,
      properties: { source: 's', license: 'l', ...f.properties },
    }));
    const path = join(mkdtempSync(join(tmpdir(), 'wos-segments-')), 'operator.geojson');
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    expect(segmentsFromEnv({})).toBe(loadEmbeddedSegments());
    expect(segmentsFromEnv({ WOS_SEGMENTS_FILE: '  ' })).toBe(loadEmbeddedSegments());
    const loaded = segmentsFromEnv({ WOS_SEGMENTS_FILE: path });
    expect(loaded.map((s) => [s.id, s.source, s.license])).toEqual([
      ['fr-cote-test-a', 's', 'l'],
      ['fr-cote-test-b', 'Surveyed by the club', 'CC-BY-4.0'],
    ]);
    expect(() => loadSegmentsFile(`${path}.missing`)).toThrow(
      /Cannot read segment catalog .*operator\.geojson\.missing/,
    );
  });

  it('names the file when it is not JSON or not a valid catalog', () => {
    expect(() => segmentsFromEnv({ WOS_SEGMENTS_FILE: `${FIXTURES}climb.gpx` })).toThrow(
      /Segment catalog .*climb\.gpx is not valid JSON/,
    );
    expect(() => loadSegmentsFile(`${FIXTURES}malformed.geojson`)).toThrow(
      /Invalid segment catalog .*malformed\.geojson:\n {2}- feature 1/,
    );
  });
});

describe('scale', () => {
  /**
   * The index must beat reading every segment by a wide margin. Both are timed in the same test,
   * so a slow or busy machine slows them alike: the ratio, not a wall-clock ceiling, is asserted.
   */
  it('builds 100,000 segments and answers near() far faster than a scan of every segment', () => {
    const many = generateSegments(100_000, 11);
    const catalog = createSegmentCatalog(many);
    const starts = many.map(start);
    const queries = Array.from({ length: 200 }, (_, i) => {
      const s = starts[(i * 7919) % starts.length] ?? { lat: 0, lon: 0 };
      return { lat: s.lat + 0.01, lon: s.lon - 0.01 };
    });
    let t = performance.now();
    const found = queries.map((q) => catalog.near(q, 25_000, 10));
    const indexedMs = (performance.now() - t) / queries.length;
    const scanned = queries.slice(0, 20);
    t = performance.now();
    const within = scanned.map((q) => starts.filter((p) => haversineM(q, p) <= 25_000).length);
    const scanMs = (performance.now() - t) / scanned.length;
    // The index answers the same question: every query near a segment finds one, at most the ten asked.
    for (const [i, hits] of found.entries()) {
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(10);
      if (i < scanned.length) expect(hits.length).toBe(Math.min(10, within[i] ?? 0));
    }
    // Measured 0.5 ms against 39 ms a query on a busy 2-core machine: an index that degrades into a scan fails.
    expect(indexedMs * 10).toBeLessThan(scanMs);
  });
});
