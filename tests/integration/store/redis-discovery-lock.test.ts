import { afterAll, describe, expect, it } from 'vitest';
import { discoveryPort } from '../../../src/app/discovery.ts';
import { REDIS_PREFIX } from '../../../src/app/shared-state.ts';
import { areaKeysAround } from '../../../src/data/discovery/area-grid.ts';
import { createLiveCatalog, type AreaDiscoverer } from '../../../src/data/discovery/live-catalog.ts';
import { createSegmentCatalog } from '../../../src/data/segments/catalog.ts';
import { freshStore, removeTestStores } from '../../alerts/helpers.ts';
import { redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis discovery-lock tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('discovery on demand with the lock in Redis', () => {
  const prefix = testPrefix('discovery-lock');
  const { open, closeAll } = testClients(prefix);
  afterAll(async () => {
    // The port writes under the application's prefix: remove this test's keys too.
    const client = open();
    const keys = await client.keys(`${REDIS_PREFIX}discovery:*`);
    if (keys.length > 0) await client.del(...keys.filter((key) => key.includes(tag)));
    await closeAll();
    removeTestStores();
  });
  // An area of the Southern Ocean no other test maps: its key names it.
  const point = { lat: -58 - Math.random(), lon: -150 + Math.random() * 100 };
  const tag = areaKeysAround(point, 1_000)[0] ?? '';

  it('lets one of two instances on separate stores map an area while the other holds back', async () => {
    let calls = 0;
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const discover: AreaDiscoverer = async () => {
      calls += 1;
      await gate;
      return { osmTimestamp: null, features: [] };
    };
    const instance = async () => {
      const store = await freshStore();
      return createLiveCatalog(createSegmentCatalog([]), {
        port: discoveryPort(
          async () => store,
          async () => open(),
        ),
        discover,
        budgetMs: 100,
        refreshAfterS: 86_400,
        recheckAfterS: 0,
        timeoutMs: 5_000,
        now: () => Math.floor(Date.now() / 1000),
      });
    };
    const [a, b] = await Promise.all([instance(), instance()]);
    const notes = await Promise.all([a.prepare(point, 1_000), b.prepare(point, 1_000)]);
    expect(notes.map((n) => n?.state)).toEqual(['mapping', 'mapping']);
    expect(calls).toBe(areaKeysAround(point, 1_000).length);
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The lock is free again: the instance that held back maps the area now (its own store has none).
    expect(await b.prepare(point, 1_000)).toBeNull();
  });
});
