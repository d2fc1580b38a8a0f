/**
 * Elevation profiles of `/v1/segments/{id}`: read from the shipped SRTM tiles in `seed` mode, from
 * those tiles or else Open-Meteo's elevation API (its wire-format double, answering from the same
 * tiles) in `online` mode, kept per segment, and never a failed answer when the heights fail.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSegmentProfiles } from '../../src/app/segment-profiles.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import type { RoadSample } from '../../src/core/discovery/road-samples.ts';
import { evenSamples } from '../../src/core/profile-samples.ts';
import { smoothedGainM } from '../../src/core/route/route-geometry.ts';
import { DiscoveryError } from '../../src/data/discovery/discovery-error.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import type { ElevationSource } from '../../src/data/discovery/types.ts';
import { createSegmentProfiles } from '../../src/data/segments/segment-profile.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import type { Segment } from '../../src/data/segments/types.ts';
import { createApiHandler } from '../../src/rest/handler.ts';
import { PROFILE_POINTS, SegmentDetailResultSchema } from '../../src/rest/schemas/segment-results.ts';
import { startElevationDouble, type ElevationDouble } from '../support/elevation-double.ts';
import { testDeps } from '../support/mcp-deps.ts';

const SEED = join(import.meta.dirname, '../../seed/dem');
const SEGMENTS = new Map(loadEmbeddedSegments().map((s) => [s.id, s]));
const segment = (id: string): Segment => {
  const found = SEGMENTS.get(id);
  if (!found) throw new Error(`no segment ${id} in the embedded catalog`);
  return found;
};
/** A discovered climb in Andorra (N42E001), 9.65 km and 722 m by the catalog. */
const ORDINO = segment('ad-col-d-ordino-from-ordino');
/** A built-in climb in the Alps, far from both seed tiles. */
const ALPE = segment('fr-alpe-d-huez');

const SEED_MODE = { mode: 'seed', overpassUrl: '', elevationUrl: '' } as const;

/** An elevation source that counts its lookups and fails on demand. */
function counting(inner: ElevationSource) {
  let calls = 0;
  let failure: Error | undefined;
  const source: ElevationSource = {
    label: inner.label,
    elevations: (points, signal) => {
      calls += 1;
      return failure ? Promise.reject(failure) : inner.elevations(points, signal);
    },
  };
  return { source, calls: () => calls, fail: (error: Error | undefined) => (failure = error) };
}

/** Each sample with the one before it. */
const pairs = (samples: readonly RoadSample[]) =>
  samples.slice(1).map((sample, i) => [samples[i] as RoadSample, sample] as const);

const lineLengthM = (s: Segment) =>
  s.polyline.slice(1).reduce((sum, p, i) => sum + greatCircleM(s.polyline[i] ?? p, p), 0);

describe('evenSamples', () => {
  it('spaces samples evenly along the road, from its start to its end, at most 120', () => {
    const samples = evenSamples(ORDINO.polyline, PROFILE_POINTS);
    expect(samples).toHaveLength(PROFILE_POINTS);
    expect(samples[0]).toMatchObject({ ...ORDINO.polyline[0], distanceM: 0 });
    expect(samples.at(-1)).toMatchObject(ORDINO.polyline.at(-1) ?? {});
    expect(samples.at(-1)?.distanceM).toBeCloseTo(lineLengthM(ORDINO), 6);
    const step = (samples.at(-1)?.distanceM ?? 0) / (samples.length - 1);
    for (const [previous, sample] of pairs(samples)) {
      expect(sample.distanceM - previous.distanceM).toBeCloseTo(step, 6);
      // Each sample lies on the road: never farther from its predecessor than the step along it (a
      // centimetre over at most, as a straight piece in degrees is not quite the great circle).
      expect(greatCircleM(previous, sample)).toBeLessThanOrEqual(step + 0.01);
    }
  });

  it('keeps both ends and an even spacing on any line', () => {
    const point = fc.record({
      lat: fc.double({ min: -60, max: 60, noNaN: true }),
      lon: fc.double({ min: -170, max: 170, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 2, maxLength: 30 }),
        fc.integer({ min: 2, max: 200 }),
        (line, max) => {
          const samples = evenSamples(line, max, 1);
          expect(samples.length).toBeLessThanOrEqual(Math.max(2, max));
          expect(samples[0]).toMatchObject(line[0] ?? {});
          if (samples.length > 1) expect(samples.at(-1)).toMatchObject(line.at(-1) ?? {});
          const step = (samples.at(-1)?.distanceM ?? 0) / Math.max(1, samples.length - 1);
          for (const [previous, sample] of pairs(samples))
            expect(sample.distanceM - previous.distanceM).toBeCloseTo(step, 3);
        },
      ),
    );
  });
});

describe('profiles in seed mode (the shipped tiles)', () => {
  const profiles = openSegmentProfiles(SEED_MODE, SEED);

  it('gives an Andorra climb a profile whose rise and length are the catalog’s', async () => {
    const { points } = await profiles.profileOf(ORDINO);
    if (!points) throw new Error('no profile for the Col d’Ordino');
    expect(points).toHaveLength(PROFILE_POINTS);
    expect(points[0]?.distanceKm).toBe(0);
    // The catalog's length is the road's before its line was simplified for storage: the stored
    // line, which the profile follows, cuts a few corners (34 m on 9.65 km here), so within 1 %.
    expect(points.at(-1)?.distanceKm).toBeCloseTo(ORDINO.distanceM / 1000, 1);
    expect(Math.abs((points.at(-1)?.distanceKm ?? 0) * 1000 - ORDINO.distanceM)).toBeLessThan(
      ORDINO.distanceM * 0.01,
    );
    const heights = points.map((p) => p.elevationM);
    expect(heights.every(Number.isInteger)).toBe(true);
    expect(points.every((p) => Number.isInteger(Math.round(p.distanceKm * 100)))).toBe(true);
    // elevation_gain_m was measured from the same tiles on a 150 m moving average of 50 m samples;
    // the profile reads unsmoothed heights every 80 m, whose few metres of DEM noise per step add
    // climbing even through the 3 m hysteresis, and whose net rise misses the dips. Both stay within
    // 10 % of the catalog's figure (769 m and 691 m against 722 m), a wrong tile or a reversed line
    // would not (the road climbs from 1,300 m to 1,980 m).
    expect(smoothedGainM(heights)).toBeGreaterThan(ORDINO.elevationGainM * 0.9);
    expect(smoothedGainM(heights)).toBeLessThan(ORDINO.elevationGainM * 1.1);
    const netRise = (heights.at(-1) ?? 0) - (heights[0] ?? 0);
    expect(netRise).toBeGreaterThan(ORDINO.elevationGainM * 0.9);
    expect(netRise).toBeLessThanOrEqual(ORDINO.elevationGainM);
  });

  it('gives a segment outside the tiles no profile, with the reason', async () => {
    const profile = await profiles.profileOf(ALPE);
    expect(profile.points).toBeNull();
    expect(profile.reason).toMatch(/N45E006/);
  });
});

describe('the cache and failures', () => {
  it('serves the second call without a lookup', async () => {
    const tiles = counting(hgtElevationSource(SEED));
    const profiles = createSegmentProfiles(tiles.source, { samples: PROFILE_POINTS });
    const [first, same] = await Promise.all([profiles.profileOf(ORDINO), profiles.profileOf(ORDINO)]);
    const again = await profiles.profileOf(ORDINO);
    expect(first.points).not.toBeNull();
    expect(same).toEqual(first);
    expect(again).toEqual(first);
    expect(tiles.calls()).toBe(1);
  });

  it('answers null on a failure and asks again after a passing one, but not after a lasting one', async () => {
    const tiles = counting(hgtElevationSource(SEED));
    const profiles = createSegmentProfiles(tiles.source, { samples: PROFILE_POINTS });
    tiles.fail(new DiscoveryError('busy', 'The elevation service is busy (HTTP 503).'));
    expect(await profiles.profileOf(ORDINO)).toEqual({
      points: null,
      reason: 'The elevation service is busy (HTTP 503).',
    });
    tiles.fail(new Error('socket hang up'));
    expect((await profiles.profileOf(ORDINO)).points).toBeNull();
    tiles.fail(undefined);
    expect((await profiles.profileOf(ORDINO)).points).not.toBeNull();
    expect(tiles.calls()).toBe(3);
    // No tile is a fact about the line: kept, not asked again.
    expect((await profiles.profileOf(ALPE)).points).toBeNull();
    expect((await profiles.profileOf(ALPE)).points).toBeNull();
    expect(tiles.calls()).toBe(4);
  });
});

describe('profiles in online mode (the elevation API after the tiles)', () => {
  let double: ElevationDouble;
  /** A folder with no tile: every height must come from the double. */
  const noTiles = mkdtempSync(join(tmpdir(), 'wos-no-tiles-'));
  beforeAll(async () => {
    double = await startElevationDouble(SEED);
  });
  afterEach(() => double.fault(undefined));
  afterAll(() => double.close());
  const online = () => ({ mode: 'online', overpassUrl: '', elevationUrl: double.url }) as const;

  it('reads heights from the elevation API where no tile covers the segment', async () => {
    const before = double.requests();
    const { points } = await openSegmentProfiles(online(), noTiles).profileOf(ORDINO);
    if (!points) throw new Error('no profile from the double');
    expect(double.requests() - before).toBe(2); // 120 points, 100 a request
    const fromTiles = (await openSegmentProfiles(SEED_MODE, SEED).profileOf(ORDINO)).points ?? [];
    // The double answers from the same tiles at 5 decimals, to 0.1 m: the same whole metres, give or take one.
    expect(points.map((p) => p.distanceKm)).toEqual(fromTiles.map((p) => p.distanceKm));
    points.forEach((p, i) =>
      expect(Math.abs(p.elevationM - (fromTiles[i]?.elevationM ?? 0))).toBeLessThanOrEqual(1),
    );
  });

  it('reads the shipped tiles first, asking the API nothing for a segment they cover', async () => {
    const before = double.requests();
    expect((await openSegmentProfiles(online(), SEED).profileOf(ORDINO)).points).not.toBeNull();
    expect(double.requests()).toBe(before);
  });

  it.each(['server-error', 'rate-limit', 'bad-json', 'short'] as const)(
    'answers null when the API fails (%s)',
    async (kind) => {
      double.fault({ kind });
      const profile = await openSegmentProfiles(online(), noTiles).profileOf(ORDINO);
      expect(profile.points).toBeNull();
      expect(profile.reason).toMatch(/Open-Meteo/);
    },
  );

  it('still answers GET /v1/segments/{id} with 200 and a null profile when the API fails', async () => {
    double.fault({ kind: 'server-error' });
    const profiles = openSegmentProfiles(online(), noTiles);
    const data = {
      ...testDeps(),
      limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) },
      profiles: async () => profiles,
    };
    const handle = createApiHandler({}, { data: async () => data, memo: 0 });
    const response = await handle(new Request('http://api.test/v1/segments/ad-col-d-ordino-from-ordino'));
    expect(response.status).toBe(200);
    expect(SegmentDetailResultSchema.parse(await response.json()).segment.profile).toBeNull();
  });
});

describe('GET /v1/segments/{id} with the seed profiles', () => {
  const profiles = openSegmentProfiles(SEED_MODE, SEED);
  const data = {
    ...testDeps(),
    limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) },
    profiles: async () => profiles,
  };
  const handle = createApiHandler({}, { data: async () => data, memo: 0 });
  const body = async (id: string) =>
    SegmentDetailResultSchema.parse(
      await (await handle(new Request(`http://api.test/v1/segments/${id}`))).json(),
    );

  it('answers the profile of an Andorra segment in the schema’s shape', async () => {
    const { segment: detail } = await body('ad-col-d-ordino-from-ordino');
    expect(detail.profile).toHaveLength(PROFILE_POINTS);
    expect(detail.profile?.[0]).toEqual({ distance_km: 0, elevation_m: expect.any(Number) });
    expect(detail.profile?.at(-1)?.distance_km).toBeCloseTo(detail.length_km, 1);
  });

  it('answers null for a segment outside the tiles', async () => {
    expect((await body('fr-alpe-d-huez')).segment.profile).toBeNull();
  });

  it('answers null when the profile source itself fails to load', async () => {
    const broken = {
      ...testDeps(),
      limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) },
      profiles: () => Promise.reject(new Error('no tiles folder')),
    };
    const response = await createApiHandler(
      {},
      { data: async () => broken, memo: 0 },
    )(new Request('http://api.test/v1/segments/ad-col-d-ordino-from-ordino'));
    expect(response.status).toBe(200);
    expect(SegmentDetailResultSchema.parse(await response.json()).segment.profile).toBeNull();
  });
});
