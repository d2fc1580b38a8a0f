import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { normalizeDegrees } from '../../core/angles.ts';
import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { type Clock, ForecastError, type ForecastSource, hourStart } from './types.ts';
import type { WindHour, WindSeries } from './types.ts';
import { cellFlights, flightKey } from './cell-flights.ts';

/** Counted per distinct grid cell per call; joining an in-flight fetch counts as a hit. */
export interface ForecastCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly upstreamCalls: number;
  /** Cells found fresh in the shared tier (only counted when one is given). */
  readonly sharedHits?: number;
}

/**
 * A key-value store shared by every instance (Redis in production, see
 * `src/store/shared-state/`). Declared here, not imported, because `src/data`
 * and `src/store` are independent layers; the composition root hands one in.
 * Both calls may reject (the store went away): the cache then carries on
 * with its own memory and upstream, never failing the question.
 */
export interface SharedCacheTier {
  getMany(keys: readonly string[]): Promise<readonly (string | null)[]>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export interface CachedForecastSource extends ForecastSource {
  stats(): ForecastCacheStats;
}

export interface ForecastCacheOptions {
  readonly clock?: Clock;
  /** Grid cells kept; 20 000 cells of 72 hours take about 85 MB. */
  readonly maxEntries?: number;
  /** How old an entry may be and still stand in, marked stale, when the source fails. */
  readonly staleForSeconds?: number;
  /** Cell size in degrees; points in one cell share one forecast. */
  readonly gridDeg?: number;
  /**
   * Entries every instance shares, so a cell one instance fetched costs the
   * others no upstream request; kept as long as `staleForSeconds` so they
   * also stand in when the source fails.
   */
  readonly shared?: SharedCacheTier;
}

/**
 * Hours are packed as [time, speed, direction, gust, temperature,
 * precipitation, probability] (NaN for null) in one Float64Array (exact,
 * ~4 KB for 72 hours) rather than 72 objects (~10 KB).
 */
const FIELDS = 7;
interface Entry {
  /** The UTC hour (Unix s) the entry was fetched in; it is fresh only during that hour. */
  readonly hour: number;
  readonly fetchedAt: number;
  readonly issuedAt: number;
  readonly stale: boolean;
  /** Null when the source had no values for the cell. */
  readonly hours: Float64Array | null;
  readonly unusableHours: number;
}

/** A grid cell of the forecast caches: its key and the centre asked upstream. */
export interface Cell {
  readonly key: string;
  readonly center: LatLon;
}

/**
 * The cell a point falls in, on a grid of `gridDeg` degrees; longitude is
 * folded to [-180, 180), so 190° and -170° (and 180° and -180°) share a cell.
 * Shared by the deterministic and the ensemble cache.
 */
export function forecastCell(point: LatLon, gridDeg: number = FORECAST_GRID_DEG): Cell {
  const cellsAround = Math.round(360 / gridDeg);
  const latIndex = Math.round(point.lat / gridDeg);
  const rawLonIndex = Math.round((normalizeDegrees(point.lon + 180) - 180) / gridDeg);
  const lonIndex = rawLonIndex * 2 >= cellsAround ? rawLonIndex - cellsAround : rawLonIndex;
  const center = { lat: roundHalfAway(latIndex * gridDeg, 4), lon: roundHalfAway(lonIndex * gridDeg, 4) };
  return { key: `${latIndex}:${lonIndex}`, center };
}

/** The cache's grid in degrees: points in one cell share one forecast (see below). */
export const FORECAST_GRID_DEG = 0.05;

/**
 * Wraps a source so repeated and nearby questions cost no upstream request.
 * Points are snapped to a 0.05° grid (≈ 5.5 km north–south, less east–west):
 * finer than the 2–11 km cells of the models Open-Meteo blends near most
 * places, so snapping rarely changes which model cell answers, yet riders in
 * the same valley share an entry. The grid-cell centre is what is asked
 * upstream, so an answer never depends on which point came first. Entries are
 * fresh for the UTC hour they were fetched in (models update at most hourly
 * and the series must start at the current hour). All misses of one call go
 * upstream in ONE batched request; concurrent calls share in-flight fetches.
 * When the source fails, entries up to `staleForSeconds` old are served with
 * `stale: true`; if any point has no such entry, the source's error is thrown.
 * With a `shared` tier, local misses are looked up there before going
 * upstream, and what comes from upstream is written there for the others.
 */
export function createForecastCache(
  source: ForecastSource,
  options: ForecastCacheOptions = {},
): CachedForecastSource {
  const clock = options.clock ?? Date.now;
  const gridDeg = options.gridDeg ?? FORECAST_GRID_DEG;
  const staleForSeconds = options.staleForSeconds ?? 6 * 3600;
  const entries = new LRUCache<string, Entry>({ max: options.maxEntries ?? 20_000 });
  const inFlight = new Map<string, Promise<Entry>>();
  const shared = options.shared;
  const counts = { hits: 0, misses: 0, upstreamCalls: 0, sharedHits: 0 };

  const cellOf = (point: LatLon): Cell => forecastCell(point, gridDeg);

  /** Reads the cells from the shared tier; a tier that fails counts as empty. */
  async function readShared(cells: readonly Cell[]): Promise<(Entry | null)[]> {
    if (!shared) return cells.map(() => null);
    try {
      const values = await shared.getMany(cells.map((cell) => cell.key));
      return cells.map((_, i) => parseEntry(values[i] ?? null));
    } catch {
      return cells.map(() => null);
    }
  }

  function writeShared(key: string, entry: Entry): void {
    shared?.set(key, serializeEntry(entry), staleForSeconds * 1000).catch(() => undefined);
  }

  function fetchCells(cells: readonly Cell[], hour: number): Map<string, Promise<Entry>> {
    const batch = (async () => {
      const found = await readShared(cells);
      const results = new Map<string, Entry>();
      const missing: Cell[] = [];
      cells.forEach((cell, i) => {
        const entry = found[i];
        if (entry && entry.hour === hour) {
          counts.sharedHits += 1;
          results.set(cell.key, entry);
        } else {
          // An older shared entry may still stand in, marked stale, if upstream fails.
          const local = entries.peek(cell.key);
          if (entry && (!local || local.fetchedAt < entry.fetchedAt)) entries.set(cell.key, entry);
          missing.push(cell);
        }
      });
      if (missing.length === 0) return results;
      counts.upstreamCalls += 1;
      const fetched = await source.hourly(missing.map((c) => c.center));
      const fetchedAt = Math.floor(clock() / 1000);
      missing.forEach((cell, i) => {
        const entry = toEntry(fetched[i] ?? null, hour, fetchedAt);
        writeShared(cell.key, entry);
        results.set(cell.key, entry);
      });
      return results;
    })();
    return cellFlights(
      cells,
      hour,
      batch,
      inFlight,
      (key, entry) => entries.set(key, entry),
      'forecast cache',
    );
  }

  function fallback(key: string, hour: number, error: unknown): Entry {
    const old = entries.peek(key);
    if (old?.hour === hour) return old;
    const nowSeconds = Math.floor(clock() / 1000);
    if (!(error instanceof ForecastError) || !old || nowSeconds - old.fetchedAt > staleForSeconds)
      throw error;
    return { ...old, stale: true };
  }

  async function hourly(points: readonly LatLon[]): Promise<readonly (WindSeries | null)[]> {
    const hour = hourStart(clock());
    const cells = points.map(cellOf);
    const pending = new Map<string, Promise<Entry>>();
    const misses: Cell[] = [];
    const seen = new Set<string>();
    for (const cell of cells) {
      if (seen.has(cell.key)) continue;
      seen.add(cell.key);
      const cached = entries.get(cell.key);
      const shared =
        cached?.hour === hour ? Promise.resolve(cached) : inFlight.get(flightKey(hour, cell.key));
      if (shared) pending.set(cell.key, shared);
      else misses.push(cell);
    }
    counts.hits += pending.size;
    counts.misses += misses.length;
    if (misses.length > 0) for (const [key, promise] of fetchCells(misses, hour)) pending.set(key, promise);

    const settled = await Promise.allSettled([...pending.values()]);
    const resolved = new Map<string, Entry>();
    [...pending.keys()].forEach((key, i) => {
      const outcome = settled[i];
      if (!outcome) return;
      resolved.set(key, outcome.status === 'fulfilled' ? outcome.value : fallback(key, hour, outcome.reason));
    });
    return cells.map((cell, i) => {
      const entry = resolved.get(cell.key);
      const point = points[i];
      return entry && point ? toSeries(entry, point, hour) : null;
    });
  }

  const stats = (): ForecastCacheStats => {
    const { sharedHits, ...local } = counts;
    return shared ? { ...local, sharedHits } : local;
  };
  return { id: source.id, hourly, stats };
}

function toEntry(series: WindSeries | null, hour: number, fetchedAt: number): Entry {
  if (!series) return { hour, fetchedAt, issuedAt: fetchedAt, stale: false, hours: null, unusableHours: 0 };
  const hours = new Float64Array(series.hours.length * FIELDS);
  series.hours.forEach((h, i) =>
    hours.set(
      [
        h.time,
        h.speedKmh,
        h.directionDeg,
        h.gustsKmh ?? NaN,
        h.temperatureC ?? NaN,
        h.precipitationMm ?? NaN,
        h.precipitationProbabilityPct ?? NaN,
      ],
      i * FIELDS,
    ),
  );
  return {
    hour,
    fetchedAt,
    issuedAt: series.issuedAt,
    stale: series.stale,
    hours,
    unusableHours: series.unusableHours,
  };
}

const orNull = (value: number | undefined): number | null =>
  value === undefined || Number.isNaN(value) ? null : value;

/**
 * An entry's hours from one UTC hour on, unpacked once per entry and hour.
 * Every call in that hour gets the same frozen array, so what is derived
 * from it (a segment's best window, remembered by the array's identity in
 * `segment-window.ts`) is computed once per forecast hour, not per call.
 */
const unpacked = new WeakMap<Entry, { readonly hour: number; readonly hours: readonly WindHour[] }>();

function hoursFrom(entry: Entry, hour: number): readonly WindHour[] {
  const known = unpacked.get(entry);
  if (known?.hour === hour) return known.hours;
  const packed = entry.hours ?? new Float64Array(0);
  const hours: WindHour[] = [];
  for (let i = 0; i + FIELDS - 1 < packed.length; i += FIELDS) {
    const time = packed[i] ?? 0;
    if (time < hour) continue;
    hours.push(
      Object.freeze({
        time,
        speedKmh: packed[i + 1] ?? 0,
        directionDeg: packed[i + 2] ?? 0,
        gustsKmh: orNull(packed[i + 3]),
        temperatureC: orNull(packed[i + 4]),
        precipitationMm: orNull(packed[i + 5]),
        precipitationProbabilityPct: orNull(packed[i + 6]),
      }),
    );
  }
  Object.freeze(hours);
  unpacked.set(entry, { hour, hours });
  return hours;
}

/** Every answer starts at the current hour: a stale entry's past hours are dropped. */
function toSeries(entry: Entry, point: LatLon, hour: number): WindSeries | null {
  const hours = hoursFrom(entry, hour);
  if (hours.length === 0 && entry.unusableHours === 0) return null;
  return { point, issuedAt: entry.issuedAt, stale: entry.stale, hours, unusableHours: entry.unusableHours };
}

/** The shared tier's form of an entry: JSON, NaN written as null (doubles round-trip exactly). */
const SharedEntrySchema = z.object({
  hour: z.number().int(),
  fetchedAt: z.number().int(),
  issuedAt: z.number(),
  stale: z.boolean(),
  unusableHours: z.number().int().nonnegative(),
  hours: z
    .array(z.number().nullable())
    .refine((values) => values.length % FIELDS === 0, 'whole hours')
    .nullable(),
});

function serializeEntry(entry: Entry): string {
  const hours = entry.hours ? Array.from(entry.hours, (v) => (Number.isNaN(v) ? null : v)) : null;
  return JSON.stringify({ ...entry, hours });
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
  const { hours, ...rest } = parsed.data;
  return { ...rest, hours: hours ? Float64Array.from(hours, (v) => v ?? NaN) : null };
}
