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
import type { LatLon } from '../../core/bearing.ts';
import { createSegmentCatalog } from '../segments/catalog.ts';
import { featureToSegment, SegmentFeatureSchema } from '../segments/geojson.ts';
import type { NearbySegment, Segment, SegmentCatalog } from '../segments/types.ts';
import { areaBBox, areaKeysAround } from './area-grid.ts';
import type { BBox } from '../../core/discovery/osm-types.ts';
import { DiscoveryError } from './discovery-error.ts';

/** An area as the store knows it. */
export interface AreaRecord {
  readonly key: string;
  readonly status: 'done' | 'failed';
  /** Unix seconds. */
  readonly checkedAt: number;
  readonly failures: number;
  readonly retryAt: number | null;
  readonly failure: string | null;
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
  const extra = new Map<string, Segment>();
  let extraCatalog: SegmentCatalog = createSegmentCatalog([]);
  /** Unix seconds this instance last read each area from the store. */
  const readAt = new Map<string, number>();
  const known = new Map<string, AreaRecord>();
  const running = new Map<string, Promise<void>>();
  /** Areas another instance holds the lock of, until the store shows them mapped. */
  const elsewhere = new Set<string>();
  const log = options.log ?? (() => undefined);

  function add(texts: readonly string[]): void {
    let changed = false;
    for (const text of texts) {
      const segment = parseFeature(text);
      if (segment) [changed] = [true, extra.set(segment.id, segment)];
    }
    if (changed) extraCatalog = createSegmentCatalog([...extra.values()]);
  }

  async function discoverArea(key: string, record: AreaRecord | undefined): Promise<void> {
    const port = await options.port();
    const release = await port.lock(`discovery:${key}`);
    if (release === null) {
      elsewhere.add(key); // another instance maps it; the store will have it
      return;
    }
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const { features, osmTimestamp } = await options.discover(areaBBox(key), signal);
      await port.save(key, options.now(), osmTimestamp, features);
      add(features.map((f) => f.feature));
      known.set(key, {
        key,
        status: 'done',
        checkedAt: options.now(),
        failures: 0,
        retryAt: null,
        failure: null,
      });
      log(`discovery: ${key} mapped, ${features.length} segment(s)`);
    } catch (error) {
      const failures = (record?.failures ?? 0) + 1;
      const sentence =
        error instanceof DiscoveryError
          ? error.message
          : signal.aborted
            ? 'Mapping this area took too long.'
            : 'Mapping this area failed.';
      const retryAt = options.now() + retryDelayS(failures - 1);
      await port.fail(key, options.now(), sentence, retryAt).catch(() => undefined);
      known.set(key, {
        key,
        status: 'failed',
        checkedAt: options.now(),
        failures,
        retryAt,
        failure: sentence,
      });
      log(`discovery: ${key} failed (${sentence}); next try in ${retryDelayS(failures - 1)} s`);
    } finally {
      await release();
    }
  }

  /** Whether an area needs (re)mapping now. */
  function due(record: AreaRecord | undefined, now: number): boolean {
    if (record === undefined) return true;
    if (record.status === 'failed') return (record.retryAt ?? 0) <= now;
    return now - record.checkedAt >= options.refreshAfterS;
  }

  async function refreshKnown(keys: readonly string[], now: number): Promise<void> {
    const stale = keys.filter((key) => now - (readAt.get(key) ?? -Infinity) >= options.recheckAfterS);
    if (stale.length === 0) return;
    const port = await options.port();
    const [records, features] = await Promise.all([port.areas(stale), port.features(stale)]);
    for (const record of records) {
      known.set(record.key, record);
      elsewhere.delete(record.key);
    }
    for (const key of stale) readAt.set(key, now);
    add(features);
  }

  function note(keys: readonly string[]): AreaNote | null {
    if (keys.some((key) => running.has(key) || elsewhere.has(key))) {
      return {
        state: 'mapping',
        sentence: 'Roads around here are being mapped for segments now; ask again in a minute for more.',
      };
    }
    const failed = keys.map((key) => known.get(key)).find((r) => r?.status === 'failed');
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
      return base.size + extra.size;
    },
    get: (id) => extra.get(id) ?? base.get(id),
    near: (point, radiusM, limit) =>
      merged(extraCatalog.near(point, radiusM, limit), base.near(point, radiusM, limit))
        .sort(byRankThenDistance)
        .slice(0, Math.max(0, limit)),
    nearest: (point, limit) =>
      merged(extraCatalog.nearest(point, limit), base.nearest(point, limit))
        .sort((a, b) => a.distanceM - b.distanceM)
        .slice(0, Math.max(0, limit)),
    findByName: (query) => {
      const over = extraCatalog.findByName(query);
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
        if (running.has(key) || !due(known.get(key), now)) continue;
        const run = discoverArea(key, known.get(key)).finally(() => running.delete(key));
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
        for (const key of keys) if (!running.has(key)) readAt.delete(key);
        await refreshKnown(keys, options.now()).catch(() => undefined);
      }
      return note(keys);
    },
    async load(ids) {
      const missing = ids.filter((id) => !extra.has(id) && base.get(id) === undefined);
      if (missing.length === 0) return;
      try {
        add(await (await options.port()).featuresById(missing));
      } catch (error) {
        log(`discovery: the store did not answer (${(error as Error).message})`);
      }
    },
  };
}
