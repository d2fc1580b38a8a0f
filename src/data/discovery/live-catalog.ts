/**
 * The catalog the tools query when discovery runs online: the built-in
 * catalog (hand-traced and seed-discovered) with the discovered segments of
 * the areas this instance has met laid over it. Queries stay synchronous, as
 * the tools expect; `prepare` (before a search) and `load` (before an id
 * lookup) bring what the store holds into memory, and start discovery for an
 * area nobody has mapped. Discovery never holds an answer longer than its
 * budget: the area keeps being mapped in the background and the next call
 * finds it.
 */
import { LRUCache } from 'lru-cache';
import type { LatLon } from '../../core/bearing.ts';
import { createSegmentCatalog } from '../segments/catalog.ts';
import { featureToSegment, SegmentFeatureSchema } from '../segments/geojson.ts';
import type { NearbySegment, Segment, SegmentCatalog } from '../segments/types.ts';
import { areaBBox, areaKeysAround } from './area-grid.ts';
import type { BBox } from '../../core/discovery/osm-types.ts';
import { areaKeyOf } from './build-blocks.ts';
import { DiscoveryError } from './discovery-error.ts';
import type { QuerySlots } from './query-slots.ts';

/** An area as the store knows it. */
export interface AreaRecord {
  readonly key: string;
  readonly status: 'done' | 'failed';
  /** Unix seconds. */
  readonly checkedAt: number;
  readonly failures: number;
  readonly retryAt: number | null;
  readonly failure: string | null;
  /** Written by an offline build (`segments:discover --osm … --into-store`): mapped, and never mapped again on demand. */
  readonly prebuilt?: boolean;
}

/** What the live catalog needs of the store and of the lock every instance shares; filled in `src/app`. */
export interface DiscoveryPort {
  areas(keys: readonly string[]): Promise<AreaRecord[]>;
  /** Stored features (GeoJSON text) of these areas. */
  features(keys: readonly string[]): Promise<string[]>;
  featuresById(ids: readonly string[]): Promise<string[]>;
  /** `checkedAt` and `retryAt` are the live catalog's clock, unix seconds: one clock decides what is due. */
  save(
    key: string,
    checkedAt: number,
    osmTimestamp: string | null,
    features: readonly { id: string; feature: string }[],
  ): Promise<void>;
  fail(key: string, checkedAt: number, failure: string, retryAt: number): Promise<void>;
  /** The release function, or null when another run holds the area. */
  lock(key: string): Promise<(() => Promise<void>) | null>;
}

/** An area's discovery: what it found, as features to store, and the OSM data's timestamp. */
export type AreaDiscoverer = (
  bbox: BBox,
  signal: AbortSignal,
) => Promise<{ features: { id: string; feature: string }[]; osmTimestamp: string | null }>;

/** One plain sentence for the answer when the area around a place is not (yet) fully known. */
export interface AreaNote {
  readonly state: 'mapping' | 'failed';
  readonly sentence: string;
}

export interface LiveCatalog extends SegmentCatalog {
  /** Makes the areas around a point known as far as the budget allows; a note when some are not. */
  prepare(point: LatLon, radiusM: number): Promise<AreaNote | null>;
  /** Brings stored discovered segments with these ids into memory. */
  load(ids: readonly string[]): Promise<void>;
  /** What this instance holds in memory: areas and their segments (bounded by `maxAreas`). */
  held(): { readonly areas: number; readonly segments: number };
}

export interface LiveCatalogOptions {
  readonly port: () => Promise<DiscoveryPort>;
  readonly discover: AreaDiscoverer;
  /** How long a call waits for discovery before answering with what is known. */
  readonly budgetMs: number;
  /** A mapped area is mapped again after this long (OSM changes). */
  readonly refreshAfterS: number;
  /** How long this instance trusts what it read of an area before asking the store again. */
  readonly recheckAfterS: number;
  /** Unix seconds. */
  readonly now: () => number;
  /** Longest one area's discovery may run. */
  readonly timeoutMs: number;
  readonly log?: (line: string) => void;
  /**
   * Keeps the platform running a discovery that outlives the call that
   * started it: on Vercel, `waitUntil` (the function is otherwise frozen
   * once it has answered); a Node server lives on and needs nothing.
   */
  readonly keepAlive?: (work: Promise<unknown>) => void;
  /** Areas kept in memory, least recently used dropped first (read back from the store when asked). */
  readonly maxAreas?: number;
  /** Overpass query slots (query-slots.ts): an area's mapping waits for one. None: no limit. */
  readonly slots?: QuerySlots;
  /** Areas this instance maps or queues at once; more are left for a later search. */
  readonly maxRunning?: number;
}

/** Areas in memory unless told: with some 20 segments an area, about 10,000 segments. */
export const AREAS_IN_MEMORY = 512;
/** Areas mapping or waiting for a query slot at once, per instance, unless told. */
export const RUNNING_AREAS = 16;

/** What this instance holds of one area. */
interface AreaEntry {
  record?: AreaRecord;
  /** Unix seconds this instance last read the area from the store. */
  readAt?: number;
  /** Another instance holds its lock; the store will have it. */
  elsewhere?: boolean;
  readonly segments: Map<string, Segment>;
}

/**
 * A search maps the areas within this of its point, whatever its radius: a
 * 100 km search would otherwise ask Overpass for some 80 areas at once, which
 * no public instance's fair use allows. Wider searches widen over later calls
 * as riders search nearby places.
 */
export const DISCOVERY_REACH_M = 25_000;

/** First retry a minute after a failure, doubling per failure in a row, at most six hours. */
export function retryDelayS(failures: number): number {
  return Math.min(6 * 3600, 60 * 2 ** Math.max(0, failures));
}

function byRankThenDistance(a: NearbySegment, b: NearbySegment): number {
  return (
    a.segment.popularityRank - b.segment.popularityRank ||
    a.distanceM - b.distanceM ||
    (a.segment.id < b.segment.id ? -1 : a.segment.id > b.segment.id ? 1 : 0)
  );
}

/** The two lists as one, a discovered entry hiding a built-in one of the same id. */
function merged(over: readonly NearbySegment[], under: readonly NearbySegment[]): NearbySegment[] {
  const ids = new Set(over.map((n) => n.segment.id));
  return [...over, ...under.filter((n) => !ids.has(n.segment.id))];
}

function parseFeature(text: string): Segment | null {
  try {
    const parsed = SegmentFeatureSchema.safeParse(JSON.parse(text));
    return parsed.success ? featureToSegment(parsed.data) : null;
  } catch {
    return null;
  }
}

export function createLiveCatalog(base: SegmentCatalog, options: LiveCatalogOptions): LiveCatalog {
  /** Every discovered segment in memory, by id; each belongs to the area of its start. */
  const byId = new Map<string, Segment>();
  let extraCatalog: SegmentCatalog = createSegmentCatalog([]);
  let stale = false;
  const areas = new LRUCache<string, AreaEntry>({
    max: Math.max(9, options.maxAreas ?? AREAS_IN_MEMORY),
    dispose: (entry) => {
      for (const [id, segment] of entry.segments) if (byId.get(id) === segment) byId.delete(id);
      stale = true;
    },
  });
  const running = new Map<string, Promise<void>>();
  const log = options.log ?? (() => undefined);
  const maxRunning = options.maxRunning ?? RUNNING_AREAS;

  /** The area's entry, made when missing; marks it recently used. */
  function entry(key: string): AreaEntry {
    let found = areas.get(key);
    if (!found) areas.set(key, (found = { segments: new Map() }));
    return found;
  }

  function catalog(): SegmentCatalog {
    if (stale) {
      extraCatalog = createSegmentCatalog([...byId.values()]);
      stale = false;
    }
    return extraCatalog;
  }

  function add(texts: readonly string[]): void {
    for (const text of texts) {
      const segment = parseFeature(text);
      const start = segment?.polyline[0];
      if (!segment || !start) continue;
      entry(areaKeyOf(start)).segments.set(segment.id, segment);
      byId.set(segment.id, segment);
      stale = true;
    }
  }

  async function discoverArea(key: string, record: AreaRecord | undefined): Promise<void> {
    // A query slot first, so the area's time-out counts from when its query may go.
    let freeSlot: (() => Promise<void>) | undefined;
    try {
      freeSlot = await options.slots?.acquire(AbortSignal.timeout(options.timeoutMs));
    } catch {
      log(
        `discovery: ${key} waited ${options.timeoutMs / 1000} s for an Overpass slot; left for a later search`,
      );
      return;
    }
    try {
      await mapArea(key, record);
    } finally {
      await freeSlot?.();
    }
  }

  async function mapArea(key: string, record: AreaRecord | undefined): Promise<void> {
    const port = await options.port();
    const release = await port.lock(`discovery:${key}`);
    if (release === null) {
      entry(key).elsewhere = true; // another instance maps it; the store will have it
      return;
    }
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const { features, osmTimestamp } = await options.discover(areaBBox(key), signal);
      await port.save(key, options.now(), osmTimestamp, features);
      add(features.map((f) => f.feature));
      entry(key).record = {
        key,
        status: 'done',
        checkedAt: options.now(),
        failures: 0,
        retryAt: null,
        failure: null,
      };
      log(`discovery: ${key} mapped, ${features.length} segment(s)`);
    } catch (error) {
      const failures = (record?.failures ?? 0) + 1;
      const sentence =
        error instanceof DiscoveryError
          ? error.message
          : signal.aborted
            ? 'Mapping this area took too long.'
            : 'Mapping this area failed.';
      // The upstream's own Retry-After, when longer than our backoff, decides.
      const asked = error instanceof DiscoveryError ? (error.retryAfterS ?? 0) : 0;
      const delayS = Math.max(retryDelayS(failures - 1), asked);
      const retryAt = options.now() + delayS;
      await port.fail(key, options.now(), sentence, retryAt).catch(() => undefined);
      entry(key).record = {
        key,
        status: 'failed',
        checkedAt: options.now(),
        failures,
        retryAt,
        failure: sentence,
      };
      log(`discovery: ${key} failed (${sentence}); next try in ${delayS} s`);
    } finally {
      await release();
    }
  }

  /** Whether an area needs (re)mapping now. */
  function due(record: AreaRecord | undefined, now: number): boolean {
    if (record === undefined) return true;
    if (record.status === 'failed') return (record.retryAt ?? 0) <= now;
    // A prepared area is refreshed by the operator's next build, never from Overpass.
    if (record.prebuilt === true) return false;
    return now - record.checkedAt >= options.refreshAfterS;
  }

  async function refreshKnown(keys: readonly string[], now: number): Promise<void> {
    const due = keys.filter((key) => now - (areas.get(key)?.readAt ?? -Infinity) >= options.recheckAfterS);
    if (due.length === 0) return;
    const port = await options.port();
    const [records, features] = await Promise.all([port.areas(due), port.features(due)]);
    for (const record of records) {
      const held = entry(record.key);
      held.record = record;
      held.elsewhere = false;
    }
    for (const key of due) entry(key).readAt = now;
    add(features);
  }

  function note(keys: readonly string[], now: number): AreaNote | null {
    if (keys.some((key) => running.has(key) || areas.peek(key)?.elsewhere === true)) {
      return {
        state: 'mapping',
        sentence: 'Roads around here are being mapped for segments now; ask again in a minute for more.',
      };
    }
    const records = keys.map((key) => areas.peek(key)?.record);
    if (records.some((record) => due(record, now))) {
      // More new areas than this instance maps at once: they wait for a later search.
      return {
        state: 'mapping',
        sentence:
          'Roads around here are waiting to be mapped for segments; ask again in a few minutes for more.',
      };
    }
    const failed = records.find((r) => r?.status === 'failed');
    if (failed) {
      const minutes = Math.max(1, Math.ceil(((failed.retryAt ?? 0) - options.now()) / 60));
      return {
        state: 'failed',
        sentence: `Mapping roads here for segments failed: ${failed.failure ?? 'no reason given.'} It is tried again in about ${minutes} min.`,
      };
    }
    return null;
  }

  return {
    get size() {
      return base.size + byId.size;
    },
    get: (id) => byId.get(id) ?? base.get(id),
    near: (point, radiusM, limit) =>
      merged(catalog().near(point, radiusM, limit), base.near(point, radiusM, limit))
        .sort(byRankThenDistance)
        .slice(0, Math.max(0, limit)),
    nearest: (point, limit) =>
      merged(catalog().nearest(point, limit), base.nearest(point, limit))
        .sort((a, b) => a.distanceM - b.distanceM)
        .slice(0, Math.max(0, limit)),
    findByName: (query) => {
      const over = catalog().findByName(query);
      const ids = new Set(over.map((s) => s.id));
      return [...over, ...base.findByName(query).filter((s) => !ids.has(s.id))];
    },
    async prepare(point, radiusM) {
      const keys = areaKeysAround(point, Math.min(radiusM, DISCOVERY_REACH_M));
      const now = options.now();
      try {
        await refreshKnown(keys, now);
      } catch (error) {
        log(`discovery: the store did not answer (${(error as Error).message})`);
        return null;
      }
      for (const key of keys) {
        if (running.has(key) || !due(areas.get(key)?.record, now)) continue;
        if (running.size >= maxRunning) break;
        const run = discoverArea(key, areas.get(key)?.record).finally(() => running.delete(key));
        running.set(key, run);
        options.keepAlive?.(run);
      }
      const pending = keys.flatMap((key) => running.get(key) ?? []);
      if (pending.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.budgetMs)));
        await Promise.race([Promise.all(pending), budget]);
        clearTimeout(timer);
        // Another instance may have mapped what we could not lock: read the store again now.
        for (const key of keys) {
          const held = areas.peek(key);
          if (held && !running.has(key)) delete held.readAt;
        }
        await refreshKnown(keys, options.now()).catch(() => undefined);
      }
      return note(keys, options.now());
    },
    async load(ids) {
      const missing = ids.filter((id) => !byId.has(id) && base.get(id) === undefined);
      if (missing.length === 0) return;
      try {
        add(await (await options.port()).featuresById(missing));
      } catch (error) {
        log(`discovery: the store did not answer (${(error as Error).message})`);
      }
    },
    held: () => ({ areas: areas.size, segments: byId.size }),
  };
}
