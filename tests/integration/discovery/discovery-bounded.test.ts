/**
 * Discovery on demand under load, in one process: the real Overpass and elevation adapters against
 * their doubles (fed the Andorra extract; elsewhere they answer no roads), the live catalog over a
 * real SQLite store. Many searches in new places at once never have more Overpass queries in flight
 * than the limit (the double counts), answer within the call's budget, and the areas held in memory
 * stay within the bound however many are met; an area dropped from memory is read back from the
 * store, not asked of Overpass again. Overpass's Retry-After holds the next query and the area's
 * next try.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryPort } from '../../../src/app/discovery.ts';
import { openMigratedStore } from '../../../src/app/migrations.ts';
import { areaDiscoverer } from '../../../src/data/discovery/area-discoverer.ts';
import { areaKeysAround } from '../../../src/data/discovery/area-grid.ts';
import { createLiveCatalog, type LiveCatalog } from '../../../src/data/discovery/live-catalog.ts';
import { openMeteoElevationSource } from '../../../src/data/discovery/open-meteo-elevation.ts';
import { readOsmFile } from '../../../src/data/discovery/osm-file.ts';
import { overpassSource } from '../../../src/data/discovery/overpass.ts';
import { memorySlots } from '../../../src/data/discovery/query-slots.ts';
import { loadCountryOf } from '../../../src/data/geocoding/nearest-country.ts';
import { createSegmentCatalog } from '../../../src/data/segments/catalog.ts';
import type { Store } from '../../../src/store/database.ts';
import { startElevationDouble, type ElevationDouble } from '../../support/elevation-double.ts';
import { startOverpassDouble, type OverpassDouble } from '../../support/overpass-double.ts';

const LIMIT = 2;
const MAX_AREAS = 64;
const BUDGET_MS = 4_000;
const ORDINO = { lat: 42.5558, lon: 1.5331 };

describe('discovery on demand, bounded', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wos-bounded-'));
  let overpass: OverpassDouble;
  let elevation: ElevationDouble;
  const stores: Store[] = [];
  let clock = 1_790_000_000;
  const countryOf = loadCountryOf();

  beforeAll(async () => {
    const fixture = await readOsmFile('seed/osm/andorra.osm.pbf');
    [overpass, elevation] = await Promise.all([
      startOverpassDouble(fixture),
      startElevationDouble('seed/dem'),
    ]);
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all([overpass.close(), elevation.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  async function instance(options: { budgetMs?: number; nowMs?: () => number } = {}): Promise<LiveCatalog> {
    const store = await openMigratedStore({
      engine: 'sqlite',
      path: join(dir, `store-${stores.length}.sqlite`),
    });
    stores.push(store);
    return createLiveCatalog(createSegmentCatalog([]), {
      port: discoveryPort(
        async () => store,
        async () => undefined,
      ),
      discover: areaDiscoverer({
        osm: overpassSource({
          url: overpass.url,
          timeoutS: 20,
          ...(options.nowMs ? { now: options.nowMs } : {}),
        }),
        elevation: openMeteoElevationSource({ url: elevation.url, timeoutMs: 10_000 }),
        countryOf: () => countryOf,
        handTraced: () => [],
      }),
      budgetMs: options.budgetMs ?? BUDGET_MS,
      refreshAfterS: 30 * 86_400,
      recheckAfterS: 60,
      timeoutMs: 60_000,
      now: () => clock,
      maxAreas: MAX_AREAS,
      slots: memorySlots(LIMIT),
    });
  }

  it(`keeps at most ${LIMIT} Overpass queries in flight for 50 searches in 20 new places at once, each answered within the budget`, async () => {
    overpass.fault('none');
    overpass.delay(150);
    const live = await instance();
    const before = overpass.requests();
    // Twenty places a few tens of km apart, Andorra's among them: some 60 new areas.
    const places = Array.from({ length: 20 }, (_, k) => ({
      lat: ORDINO.lat + Math.floor(k / 5) * 0.3,
      lon: ORDINO.lon + (k % 5) * 0.4,
    }));
    const calls = Array.from({ length: 50 }, async (_, k) => {
      const started = performance.now();
      const note = await live.prepare(places[k % places.length] ?? ORDINO, 25_000);
      return { note, ms: performance.now() - started };
    });
    const answers = await Promise.all(calls);
    expect(overpass.maxInFlight()).toBeLessThanOrEqual(LIMIT);
    expect(overpass.maxInFlight()).toBeGreaterThan(0);
    for (const { ms } of answers) expect(ms).toBeLessThan(BUDGET_MS + 1_500);
    // Not everything fits in one budget: the answers say mapping goes on.
    expect(answers.some(({ note }) => note?.state === 'mapping')).toBe(true);
    // Searching again later finds the rest mapped, still never past the limit.
    await expect
      .poll(
        async () =>
          (await live.prepare(places[0] ?? ORDINO, 25_000)) === null && live.near(ORDINO, 5_000, 50).length,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBeGreaterThan(0);
    expect(overpass.requests() - before).toBeGreaterThan(LIMIT);
    expect(overpass.maxInFlight()).toBeLessThanOrEqual(LIMIT);
    overpass.delay(0);
  });

  it(`holds at most ${MAX_AREAS} areas in memory after 1,000 have been met, and reads a dropped one back from the store`, async () => {
    // Here the discoverer is scripted (one climb per area): the point is memory, not Overpass.
    const store = await openMigratedStore({ engine: 'sqlite', path: ':memory:' });
    stores.push(store);
    let calls = 0;
    const live = createLiveCatalog(createSegmentCatalog([]), {
      port: discoveryPort(
        async () => store,
        async () => undefined,
      ),
      discover: async (bbox) => {
        calls++;
        const lat = (bbox.south + bbox.north) / 2;
        const lon = (bbox.west + bbox.east) / 2;
        const id = `xx-climb-${calls}`;
        const feature = {
          type: 'Feature',
          properties: {
            id,
            name: `Climb ${calls}`,
            aliases: [],
            country: 'XX',
            distance_m: 1400,
            average_grade_pct: 6,
            elevation_gain_m: 84,
            popularity_rank: 1500,
            source: 'Made up for the memory bound',
            license: 'ODbL-1.0',
            kind: 'climb',
          },
          geometry: {
            type: 'LineString',
            coordinates: [
              [lon, lat],
              [lon + 0.01, lat + 0.01],
            ],
          },
        };
        return { osmTimestamp: null, features: [{ id, feature: JSON.stringify(feature) }] };
      },
      budgetMs: 60_000,
      refreshAfterS: 30 * 86_400,
      recheckAfterS: 60,
      timeoutMs: 60_000,
      now: () => clock,
      maxAreas: MAX_AREAS,
      slots: memorySlots(LIMIT),
    });
    const home = { lat: -40.1, lon: 100.1 };
    expect(await live.prepare(home, 1_000)).toBeNull();
    const first = live.near(home, 50_000, 50).map((n) => n.segment.id);
    expect(first.length).toBeGreaterThan(0);
    const met = new Set<string>();
    for (let k = 0; met.size < 1_000; k++) {
      // Points 1° apart: nine new areas each.
      const point = { lat: -50 - Math.floor(k / 60), lon: -170 + (k % 60) * 5.5 };
      for (const key of areaKeysAround(point, 25_000)) met.add(key);
      expect(await live.prepare(point, 25_000)).toBeNull();
      expect(live.held().areas).toBeLessThanOrEqual(MAX_AREAS);
    }
    expect(live.held().segments).toBeLessThanOrEqual(MAX_AREAS);
    // The first areas were dropped long ago; asking again reads them from the store, not upstream.
    expect(live.get(first[0] ?? '')).toBeUndefined();
    const asked = calls;
    clock += 61; // past the instance's recheck interval
    expect(await live.prepare(home, 1_000)).toBeNull();
    expect(live.near(home, 50_000, 50).map((n) => n.segment.id)).toEqual(first);
    expect(calls).toBe(asked);
  }, 120_000);

  it("honours Overpass's Retry-After: no query before it has passed, and the area's next try waits for it", async () => {
    let nowMs = clock * 1000;
    const live = await instance({ nowMs: () => nowMs, budgetMs: 30_000 });
    overpass.fault('http429');
    overpass.retryAfter('900');
    const point = { lat: 10.3, lon: 20.3 };
    const first = await live.prepare(point, 1_000);
    expect(first?.state).toBe('failed');
    expect(first?.sentence).toMatch(/busy/);
    expect(first?.sentence).toMatch(/15 min/);
    overpass.fault('none');
    overpass.retryAfter(undefined);
    const asked = overpass.requests();
    // Our own backoff (60 s) has passed, Overpass's 900 s not: nothing is asked.
    clock += 120;
    nowMs += 120_000;
    expect((await live.prepare(point, 1_000))?.state).toBe('failed');
    expect(overpass.requests()).toBe(asked);
    clock += 800;
    nowMs += 800_000;
    expect(await live.prepare(point, 1_000)).toBeNull();
    expect(overpass.requests()).toBeGreaterThan(asked);
  });
});
