/**
 * Discovery on demand (`WOS_DISCOVERY=online`), wired: the live catalog over
 * the built-in one, its store port on the rider store's repositories, its
 * lock in Redis when set (else in the store, which every instance shares),
 * and the Overpass and elevation adapters the settings name. Loaded only in
 * online mode, so the default set-up never compiles any of it.
 */
import type { Redis } from 'ioredis';
import { areaDiscoverer } from '../data/discovery/area-discoverer.ts';
import { createLiveCatalog, type DiscoveryPort, type LiveCatalog } from '../data/discovery/live-catalog.ts';
import { openMeteoElevationSource } from '../data/discovery/open-meteo-elevation.ts';
import { overpassSource } from '../data/discovery/overpass.ts';
import { bothSlots, memorySlots, type QuerySlots } from '../data/discovery/query-slots.ts';
import { loadTownsIn, type TownsIn } from '../data/geocoding/gazetteer-towns.ts';
import { loadCountryOf, type CountryOf } from '../data/geocoding/nearest-country.ts';
import { loadHandTracedSegments } from '../data/segments/load.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { nowSeconds } from '../store/clock.ts';
import type { Store } from '../store/database.ts';
import {
  findAreaFeatures,
  findDiscoveredAreas,
  findFeaturesById,
  recordDiscoveryFailure,
  saveDiscoveredArea,
} from '../store/repositories/discovered-segments.ts';
import { createStoreLock } from '../store/repositories/job-state.ts';
import { lazy, type Lazy } from './graph.ts';
import type { Settings } from './settings.ts';
import { REDIS_PREFIX } from './shared-state.ts';

/** An area's discovery may run this long before it is given up (and retried after a backoff). */
const AREA_TIMEOUT_MS = 120_000;
/** A call waits this long for discovery, then answers with what is known and says the rest is being mapped. */
const CALL_BUDGET_MS = 4_000;
/** Areas are mapped again after 30 days: roads change slowly, and Overpass is a shared resource. */
const REFRESH_AFTER_S = 30 * 86_400;
/** How long an instance trusts its own view of an area before reading the store again. */
const RECHECK_AFTER_S = 60;

/** The live catalog's store and lock, on the rider store (and Redis for the lock when set). */
export function discoveryPort(store: Lazy<Store>, redis: Lazy<Redis | undefined>): Lazy<DiscoveryPort> {
  return lazy(async () => {
    const [{ db }, client] = await Promise.all([store(), redis()]);
    const ttl = AREA_TIMEOUT_MS + 30_000;
    let lockFor = (key: string) => createStoreLock(db, key, ttl);
    if (client) {
      const { createRedisLock } = await import('../store/shared-state/lock.ts');
      lockFor = (key) => createRedisLock(client, `${REDIS_PREFIX}${key}`, ttl);
    }
    return {
      areas: async (keys) =>
        (await findDiscoveredAreas(db, keys)).map((row) => ({
          key: row.key,
          status: row.status,
          checkedAt: Number(row.checked_at),
          failures: row.failures,
          retryAt: row.retry_at === null ? null : Number(row.retry_at),
          failure: row.failure,
          prebuilt: row.build !== null && row.build !== undefined,
        })),
      features: (keys) => findAreaFeatures(db, keys),
      featuresById: (ids) => findFeaturesById(db, ids),
      save: async (key, checkedAt, osmTimestamp, features) => {
        await saveDiscoveredArea(db, { key, checkedAt, osmTimestamp }, features);
      },
      fail: (key, checkedAt, failure, retryAt) =>
        recordDiscoveryFailure(db, { key, checkedAt, failure, retryAt }),
      lock: (key) => lockFor(key).acquire(),
    };
  });
}

/**
 * At most `limit` Overpass queries in flight from this instance, and with
 * Redis at most `limit` across every instance together (one sorted set of
 * holders; a holder that dies frees its slot after an area's time-out).
 * Without Redis, or when it does not answer, the instance's own limit holds.
 */
export function overpassSlots(limit: number, redis: Lazy<Redis | undefined>): QuerySlots {
  const own = memorySlots(limit);
  let shared: Promise<QuerySlots | undefined> | undefined;
  const sharedSlots = () =>
    (shared ??= redis().then(async (client) => {
      if (!client) return undefined;
      const { createRedisSlots } = await import('../store/shared-state/redis-slots.ts');
      return createRedisSlots(client, `${REDIS_PREFIX}overpass:slots`, limit, {
        ttlMs: AREA_TIMEOUT_MS + 30_000,
      });
    }));
  return {
    async acquire(signal) {
      const across = await sharedSlots().catch(() => undefined);
      if (!across) return own.acquire(signal);
      const slots = bothSlots(own, {
        // Redis down: the instance's own limit is still kept.
        acquire: (s) =>
          across.acquire(s).catch((error: unknown) => {
            if (s?.aborted) throw error;
            return async () => undefined;
          }),
      });
      return slots.acquire(signal);
    },
  };
}

export function openLiveCatalog(
  settings: Settings['discovery'],
  base: SegmentCatalog,
  store: Lazy<Store>,
  redis: Lazy<Redis | undefined>,
  overrides: { budgetMs?: number; keepAlive?: (work: Promise<unknown>) => void } = {},
): LiveCatalog {
  const countryOf: Lazy<CountryOf> = lazy(() => loadCountryOf());
  const townsIn: Lazy<TownsIn> = lazy(() => loadTownsIn());
  return createLiveCatalog(base, {
    port: discoveryPort(store, redis),
    maxAreas: settings.areasInMemory,
    slots: overpassSlots(settings.overpassConcurrency, redis),
    discover: areaDiscoverer({
      osm: overpassSource({ url: settings.overpassUrl }),
      elevation: openMeteoElevationSource({ url: settings.elevationUrl }),
      countryOf,
      townsIn,
      handTraced: loadHandTracedSegments,
    }),
    budgetMs: overrides.budgetMs ?? CALL_BUDGET_MS,
    refreshAfterS: REFRESH_AFTER_S,
    recheckAfterS: RECHECK_AFTER_S,
    timeoutMs: AREA_TIMEOUT_MS,
    now: nowSeconds,
    log: (line) => console.log(line),
    ...(overrides.keepAlive ? { keepAlive: overrides.keepAlive } : {}),
  });
}
