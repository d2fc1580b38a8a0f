import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { discoveryPort } from '../../src/app/discovery.ts';
import type { BBox } from '../../src/core/discovery/osm-types.ts';
import { areaKeysAround } from '../../src/data/discovery/area-grid.ts';
import { DiscoveryError } from '../../src/data/discovery/discovery-error.ts';
import {
  createLiveCatalog,
  DISCOVERY_REACH_M,
  retryDelayS,
  type AreaDiscoverer,
} from '../../src/data/discovery/live-catalog.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { formatFeatureCollection, segmentToFeature } from '../../src/data/segments/geojson.ts';
import type { Segment } from '../../src/data/segments/types.ts';
import type { CurrentStore } from './contract-helpers.ts';

/** A climb starting at the bbox's centre, named for the area so each test's segments are its own. */
function climbIn(bbox: BBox, tag: string, n = 0): Segment {
  const lat = (bbox.south + bbox.north) / 2 + n * 0.001;
  const lon = (bbox.west + bbox.east) / 2;
  return {
    id: `xx-${tag}-climb-${n}`,
    name: `Climb ${n} of ${tag}`,
    aliases: [],
    countryCode: 'XX',
    polyline: [
      { lat, lon },
      { lat: lat + 0.01, lon: lon + 0.01 },
    ],
    distanceM: 1400,
    averageGradePct: 6,
    elevationGainM: 84,
    popularityRank: 1500,
    source: 'Made up for the store contract',
    license: 'ODbL-1.0',
    kind: 'climb',
    maxGradePct: 9,
  };
}

const asFeature = (segment: Segment) => ({
  id: segment.id,
  feature: JSON.stringify(segmentToFeature(segment)),
});

/** A discoverer that counts its calls, and can be made to fail or to wait. */
function scriptedDiscoverer(tag: string) {
  let calls = 0;
  let fault: DiscoveryError | null = null;
  let gate: Promise<void> = Promise.resolve();
  const discover: AreaDiscoverer = async (bbox) => {
    calls += 1;
    await gate;
    if (fault) throw fault;
    return {
      osmTimestamp: '2026-11-20T00:00:00Z',
      features: [asFeature(climbIn(bbox, tag)), asFeature(climbIn(bbox, tag, 1))],
    };
  };
  return {
    discover,
    calls: () => calls,
    fail: (error: DiscoveryError | null) => void (fault = error),
    hold: () => {
      let open: () => void = () => undefined;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => open();
    },
  };
}

/** Somewhere no other test maps: a random point, so reruns on one database never meet. */
function freshPoint() {
  return { lat: -60 + Math.random() * 120, lon: -170 + Math.random() * 340 };
}

export function describeDiscovered(current: CurrentStore): void {
  describe('discovered segments (discovery on demand)', () => {
    const base = createSegmentCatalog([]);
    const clock = { now: 1_790_000_000 };
    /** Mapping left running by a search past its budget (`keepAlive`), awaited instead of slept on. */
    const background: Promise<unknown>[] = [];
    const settled = async (): Promise<void> => {
      while (background.length > 0) await Promise.allSettled(background.splice(0));
    };
    const live = (discover: AreaDiscoverer, budgetMs = 5_000) =>
      createLiveCatalog(base, {
        port: discoveryPort(
          async () => current(),
          async () => undefined,
        ),
        discover,
        budgetMs,
        refreshAfterS: 30 * 86_400,
        recheckAfterS: 0,
        timeoutMs: 10_000,
        now: () => clock.now,
        keepAlive: (work) => background.push(work),
      });

    it('maps an area once, stores it, and a second instance serves it from the store', async () => {
      const tag = randomUUID().slice(0, 8);
      const point = freshPoint();
      const source = scriptedDiscoverer(tag);
      const first = live(source.discover);
      expect(await first.prepare(point, 1_000)).toBeNull();
      const areas = areaKeysAround(point, 1_000).length;
      expect(source.calls()).toBe(areas);
      expect(first.near(point, 20_000, 50).length).toBeGreaterThan(0);

      const other = scriptedDiscoverer(tag);
      const second = live(other.discover);
      expect(await second.prepare(point, 1_000)).toBeNull();
      expect(other.calls()).toBe(0);
      expect(
        second
          .near(point, 20_000, 50)
          .map((n) => n.segment.id)
          .sort(),
      ).toEqual(
        first
          .near(point, 20_000, 50)
          .map((n) => n.segment.id)
          .sort(),
      );
      // An id alone is found by an instance that has not met the area.
      const id = first.near(point, 20_000, 1)[0]?.segment.id ?? '';
      const third = live(scriptedDiscoverer(tag).discover);
      expect(third.get(id)).toBeUndefined();
      await third.load([id]);
      expect(third.get(id)?.kind).toBe('climb');
    });

    it('maps only the areas within reach of the place, however wide the search', async () => {
      const source = scriptedDiscoverer(randomUUID().slice(0, 8));
      const point = freshPoint();
      await live(source.discover).prepare(point, 100_000);
      expect(source.calls()).toBe(areaKeysAround(point, DISCOVERY_REACH_M).length);
      expect(source.calls()).toBeLessThan(areaKeysAround(point, 100_000).length);
    });

    it('runs discovery once when two instances ask at once', async () => {
      const tag = randomUUID().slice(0, 8);
      const point = freshPoint();
      const source = scriptedDiscoverer(tag);
      const open = source.hold();
      const [a, b] = [live(source.discover, 50), live(source.discover, 50)];
      const notes = await Promise.all([a.prepare(point, 1_000), b.prepare(point, 1_000)]);
      expect(notes.map((n) => n?.state)).toEqual(['mapping', 'mapping']);
      open();
      await settled();
      expect(source.calls()).toBe(areaKeysAround(point, 1_000).length);
      expect(await b.prepare(point, 1_000)).toBeNull();
      expect(b.near(point, 20_000, 50).length).toBeGreaterThan(0);
    });

    it('stores nothing of a failed area, says why, and retries only after the backoff', async () => {
      const tag = randomUUID().slice(0, 8);
      const point = freshPoint();
      const source = scriptedDiscoverer(tag);
      source.fail(new DiscoveryError('busy', 'Overpass is busy (HTTP 429).'));
      const catalog = live(source.discover);
      const note = await catalog.prepare(point, 1_000);
      expect(note?.state).toBe('failed');
      expect(note?.sentence).toContain('Overpass is busy (HTTP 429).');
      expect(catalog.near(point, 20_000, 50)).toEqual([]);
      const keys = areaKeysAround(point, 1_000);
      const stored = await current()
        .db.selectFrom('discovered_segment')
        .select('id')
        .where('area_key', 'in', keys)
        .execute();
      expect(stored).toEqual([]);
      const calls = source.calls();
      expect((await catalog.prepare(point, 1_000))?.state).toBe('failed');
      expect(source.calls()).toBe(calls);
      clock.now += retryDelayS(0);
      source.fail(null);
      expect(await catalog.prepare(point, 1_000)).toBeNull();
      expect(source.calls()).toBe(calls + keys.length);
      expect(catalog.near(point, 20_000, 50).length).toBeGreaterThan(0);
    });

    it('keeps what a previous mapping stored when a refresh fails', async () => {
      const tag = randomUUID().slice(0, 8);
      const point = freshPoint();
      const source = scriptedDiscoverer(tag);
      await live(source.discover).prepare(point, 1_000);
      clock.now += 31 * 86_400;
      source.fail(
        new DiscoveryError('malformed', 'Overpass answered something that is not its JSON format.'),
      );
      const later = live(source.discover);
      expect((await later.prepare(point, 1_000))?.state).toBe('failed');
      expect(later.near(point, 20_000, 50).length).toBeGreaterThan(0);
    });

    it('writes what the export reads: valid GeoJSON features with their provenance', async () => {
      const rows = await current().db.selectFrom('discovered_segment').select('feature').limit(3).execute();
      expect(rows.length).toBeGreaterThan(0);
      const text = formatFeatureCollection(rows.map((row) => JSON.parse(row.feature) as unknown));
      expect(JSON.parse(text)).toMatchObject({ type: 'FeatureCollection' });
    });
  });
}
