import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { type Cell, FORECAST_GRID_DEG, forecastCell, type SharedCacheTier } from './cache.ts';
import type { EnsembleSeries, EnsembleSource } from './ensemble-types.ts';
import { type Clock, FORECAST_HOURS, ForecastError, hourStart } from './types.ts';
import { cellFlights, flightKey } from './cell-flights.ts';

/** Counted per distinct cell per call, like the deterministic cache; joining an in-flight fetch is a hit. */
export interface EnsembleCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly upstreamCalls: number;
  readonly sharedHits: number;
}

export interface CachedEnsembleSource extends EnsembleSource {
  stats(): EnsembleCacheStats;
}

export interface EnsembleCacheOptions {
  readonly clock?: Clock;
  /** Cells kept; a cell of 51 members × 84 hours packs into about 17 KB. */
  readonly maxEntries?: number;
  /** How old an entry may be and still stand in, marked stale, when the source fails. */
  readonly staleForSeconds?: number;
  readonly gridDeg?: number;
  readonly shared?: SharedCacheTier;
}

/**
 * One cell's members, packed: speed and direction of every member of every
 * kept hour as tenths in an Int16Array ([hour][member][speed, direction]),
 * exact for the 0.1 km/h and whole degrees the providers send, and a sixth
 * of the memory of 8568 boxed numbers.
 */
interface Entry {
  /** The run it belongs to, or (run unknown) the UTC hour it was fetched in, prefixed `h`. */
  readonly version: string;
  readonly model: string;
  readonly members: number;
  readonly runAt: number | null;
  readonly fetchedAt: number;
  readonly times: readonly number[];
  readonly packed: Int16Array;
  readonly unusableHours: number;
  /** The source had nothing for the cell. */
  readonly empty: boolean;
}

/**
 * Wraps an ensemble source so a cell is asked upstream once per MODEL RUN:
 * points snap to the deterministic cache's 0.05° grid, the key is the model,
 * its current run and the cell, and an entry serves every call until the run
 * changes (while it still covers the 72-hour horizon from the current hour).
 * When the run cannot be learned, entries last the UTC hour they were fetched
 * in. Misses of one call go upstream in ONE batched request; concurrent calls
 * share in-flight fetches; a shared tier (Redis) is read before upstream and
 * written after. When the source fails, an entry up to `staleForSeconds` old
 * (any run) stands in marked stale; otherwise the error is thrown and the
 * caller answers without probabilities.
 */
export function createEnsembleCache(
  source: EnsembleSource,
  options: EnsembleCacheOptions = {},
): CachedEnsembleSource {
  const clock = options.clock ?? Date.now;
  const gridDeg = options.gridDeg ?? FORECAST_GRID_DEG;
  const staleForSeconds = options.staleForSeconds ?? 12 * 3600;
  const entries = new LRUCache<string, Entry>({ max: options.maxEntries ?? 4000 });
  const inFlight = new Map<string, Promise<Entry>>();
  const shared = options.shared;
  const counts = { hits: 0, misses: 0, upstreamCalls: 0, sharedHits: 0 };

  const fresh = (entry: Entry | undefined, version: string, hour: number): entry is Entry =>
    entry !== undefined &&
    entry.version === version &&
    (entry.empty || (entry.times.at(-1) ?? -Infinity) >= hour + (FORECAST_HOURS - 1) * 3600);

  const sharedKey = (version: string, cell: Cell) => `${source.model}:${version}:${cell.key}`;

  async function readShared(cells: readonly Cell[], version: string): Promise<(Entry | null)[]> {
    if (!shared) return cells.map(() => null);
    try {
      const values = await shared.getMany(cells.map((cell) => sharedKey(version, cell)));
      return cells.map((_, i) => parseEntry(values[i] ?? null));
    } catch {
      return cells.map(() => null);
    }
  }

  function fetchCells(cells: readonly Cell[], version: string, hour: number): Map<string, Promise<Entry>> {
    const batch = (async () => {
      const found = await readShared(cells, version);
      const results = new Map<string, Entry>();
      const missing: Cell[] = [];
      cells.forEach((cell, i) => {
        const entry = found[i];
        if (entry && fresh(entry, version, hour)) {
          counts.sharedHits += 1;
          results.set(cell.key, entry);
        } else missing.push(cell);
      });
      if (missing.length === 0) return results;
      counts.upstreamCalls += 1;
      const fetched = await source.hourly(missing.map((c) => c.center));
      const fetchedAt = Math.floor(clock() / 1000);
      missing.forEach((cell, i) => {
        const entry = toEntry(fetched[i] ?? null, version, source, fetchedAt);
        shared
          ?.set(sharedKey(version, cell), serializeEntry(entry), staleForSeconds * 1000)
          .catch(() => undefined);
        results.set(cell.key, entry);
      });
      return results;
    })();
    return cellFlights(
      cells,
      version,
      batch,
      inFlight,
      (key, entry) => entries.set(key, entry),
      'ensemble cache',
    );
  }

  function fallback(key: string, error: unknown): Entry & { stale?: true } {
    const old = entries.peek(key);
    const nowSeconds = Math.floor(clock() / 1000);
    if (!(error instanceof ForecastError) || !old || nowSeconds - old.fetchedAt > staleForSeconds)
      throw error;
    return { ...old, stale: true };
  }

  async function hourly(points: readonly LatLon[]): Promise<readonly (EnsembleSeries | null)[]> {
    const hour = hourStart(clock());
    const run = await source.currentRun();
    const version = run === null ? `h${hour}` : String(run);
    const cells = points.map((point) => forecastCell(point, gridDeg));
    const pending = new Map<string, Promise<Entry>>();
    const misses: Cell[] = [];
    for (const cell of cells) {
      if (pending.has(cell.key) || misses.some((m) => m.key === cell.key)) continue;
      const cached = entries.get(cell.key);
      const joined = fresh(cached, version, hour)
        ? Promise.resolve(cached)
        : inFlight.get(flightKey(version, cell.key));
      if (joined) pending.set(cell.key, joined);
      else misses.push(cell);
    }
    counts.hits += pending.size;
    counts.misses += misses.length;
    if (misses.length > 0) for (const [key, p] of fetchCells(misses, version, hour)) pending.set(key, p);

    const settled = await Promise.allSettled([...pending.values()]);
    const resolved = new Map<string, Entry & { stale?: true }>();
    [...pending.keys()].forEach((key, i) => {
      const outcome = settled[i];
      if (outcome)
        resolved.set(key, outcome.status === 'fulfilled' ? outcome.value : fallback(key, outcome.reason));
    });
    return cells.map((cell, i) => {
      const entry = resolved.get(cell.key);
      const point = points[i];
      return entry && point ? toSeries(entry, point, hour, entry.stale === true) : null;
    });
  }

  return {
    id: source.id,
    model: source.model,
    members: source.members,
    currentRun: () => source.currentRun(),
    hourly,
    stats: () => ({ ...counts }),
  };
}

function toEntry(
  series: EnsembleSeries | null,
  version: string,
  source: EnsembleSource,
  fetchedAt: number,
): Entry {
  const base = { version, model: source.model, members: source.members, fetchedAt };
  if (!series)
    return { ...base, runAt: null, times: [], packed: new Int16Array(0), unusableHours: 0, empty: true };
  const members = series.members;
  const packed = new Int16Array(series.hours.length * members * 2);
  series.hours.forEach((hour, h) => {
    for (let m = 0; m < members; m++) {
      const at = (h * members + m) * 2;
      packed[at] = Math.round((hour.speedKmh[m] ?? NaN) * 10);
      packed[at + 1] = Math.round((hour.directionDeg[m] ?? NaN) * 10);
    }
  });
  return {
    ...base,
    model: series.model,
    members,
    runAt: series.runAt,
    times: series.hours.map((hour) => hour.time),
    packed,
    unusableHours: series.unusableHours,
    empty: false,
  };
}

/** An entry's hours from one UTC hour on, unpacked once per entry and hour and shared (frozen). */
const unpacked = new WeakMap<Entry, { readonly hour: number; readonly hours: readonly EnsembleSample[] }>();

function hoursFrom(entry: Entry, hour: number): readonly EnsembleSample[] {
  const known = unpacked.get(entry);
  if (known?.hour === hour) return known.hours;
  const hours: EnsembleSample[] = [];
  const { members, packed } = entry;
  entry.times.forEach((time, h) => {
    if (time < hour) return;
    const speedKmh = new Array<number>(members);
    const directionDeg = new Array<number>(members);
    for (let m = 0; m < members; m++) {
      const at = (h * members + m) * 2;
      speedKmh[m] = (packed[at] ?? NaN) / 10;
      directionDeg[m] = (packed[at + 1] ?? NaN) / 10;
    }
    hours.push(
      Object.freeze({ time, speedKmh: Object.freeze(speedKmh), directionDeg: Object.freeze(directionDeg) }),
    );
  });
  Object.freeze(hours);
  unpacked.set(entry, { hour, hours });
  return hours;
}

function toSeries(entry: Entry, point: LatLon, hour: number, stale: boolean): EnsembleSeries | null {
  if (entry.empty) return null;
  return {
    point,
    model: entry.model,
    members: entry.members,
    runAt: entry.runAt,
    fetchedAt: entry.fetchedAt,
    stale,
    hours: hoursFrom(entry, hour),
    unusableHours: entry.unusableHours,
  };
}

/** The shared tier's form: JSON with the packed members as base64 (about 23 KB a cell). */
const SharedEntrySchema = z.object({
  version: z.string(),
  model: z.string(),
  members: z.number().int().positive(),
  runAt: z.number().int().nullable(),
  fetchedAt: z.number().int(),
  times: z.array(z.number().int()),
  packed: z.string(),
  unusableHours: z.number().int().nonnegative(),
  empty: z.boolean(),
});

function serializeEntry(entry: Entry): string {
  const packed = Buffer.from(entry.packed.buffer, entry.packed.byteOffset, entry.packed.byteLength);
  return JSON.stringify({ ...entry, packed: packed.toString('base64') });
}

/** A value another version wrote, or nothing: either way a miss, never an error. */
function parseEntry(text: string | null): Entry | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = SharedEntrySchema.safeParse(json);
  if (!parsed.success) return null;
  const bytes = Buffer.from(parsed.data.packed, 'base64');
  if (bytes.byteLength !== parsed.data.times.length * parsed.data.members * 4) return null;
  const packed = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { ...parsed.data, packed };
}
