import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { createCellCache, forecastCell, parseShared, type SharedCacheTier } from './cell-cache.ts';
import { hourSetId, type HourSetId } from './hour-set.ts';
import { type Clock, type ForecastSource, hourStart } from './types.ts';
import type { WindHour } from '../../core/wind-hour.ts';
import type { WindSeries } from './types.ts';

/** Counted per distinct grid cell per call; joining an in-flight fetch counts as a hit. */
export interface ForecastCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly upstreamCalls: number;
  /** Cells found fresh in the shared tier (only counted when one is given). */
  readonly sharedHits?: number;
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

/** The cache's grid in degrees (core's, see forecast-cell.ts): points in one cell share one forecast. */
export { FORECAST_GRID_DEG } from '../../core/forecast-cell.ts';
import { FORECAST_GRID_DEG } from '../../core/forecast-cell.ts';

/**
 * Wraps a source so repeated and nearby questions cost no upstream request.
 * Points are snapped to a 0.05° grid (≈ 5.5 km north–south, less east–west):
 * finer than the 2–11 km cells of the models Open-Meteo blends near most
 * places, so snapping rarely changes which model cell answers, yet riders in
 * the same valley share an entry. The grid-cell centre is what is asked
 * upstream, so an answer never depends on which point came first. Entries are
 * fresh for the UTC hour they were fetched in (models update at most hourly
 * and the series must start at the current hour). The rest (one batched
 * request per call, shared in-flight fetches, the shared tier, stale entries
 * standing in when the source fails) is `createCellCache`'s.
 */
export function createForecastCache(
  source: ForecastSource,
  options: ForecastCacheOptions = {},
): CachedForecastSource {
  const clock = options.clock ?? Date.now;
  const gridDeg = options.gridDeg ?? FORECAST_GRID_DEG;
  const cache = createCellCache({
    name: 'forecast cache',
    clock,
    maxEntries: options.maxEntries ?? 20_000,
    staleForSeconds: options.staleForSeconds ?? 6 * 3600,
    shared: options.shared,
    fresh: (entry: Entry, hour: number) => entry.hour === hour,
    fetchedAt: (entry) => entry.fetchedAt,
    // One key per cell: the newest entry of any hour, so an older one can stand in.
    sharedKey: (cell) => cell.key,
    upstream: (centers) => source.hourly(centers),
    toEntry,
    serialize: serializeEntry,
    parse: parseEntry,
  });

  async function hourly(points: readonly LatLon[]): Promise<readonly (WindSeries | null)[]> {
    const hour = hourStart(clock());
    const cells = points.map((point) => forecastCell(point, gridDeg));
    const found = await cache.lookup(cells, hour, hour);
    return cells.map((cell, i) => {
      const cached = found.get(cell.key);
      const point = points[i];
      return cached && point ? toSeries(cached.entry, cell.key, point, hour, cached.stale) : null;
    });
  }

  const stats = (): ForecastCacheStats => {
    const { sharedHits, ...local } = cache.counts();
    return options.shared ? { ...local, sharedHits } : local;
  };
  return { id: source.id, hourly, stats };
}

function toEntry(series: WindSeries | null, fetchedAt: number, hour: number): Entry {
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

/** An entry's run of hours from one UTC hour on: its name, and its hour objects while someone holds them. */
interface Unpacked {
  readonly hour: number;
  readonly id: HourSetId;
  hours: WeakRef<readonly WindHour[]> | undefined;
}
const unpacked = new WeakMap<Entry, Unpacked>();

/**
 * An entry's run of hours from one UTC hour on, named (`hour-set.ts`) by the cell,
 * the entry's fetch and issue times and that hour, so what is derived from
 * them (a segment's best window, `derived-results.ts`) is computed once per
 * forecast hour, not per call; and the same array as long as a caller still
 * holds it. The hour objects are not kept with the entry: 72 objects per
 * cell held some 50 MB with 3,600 cells in play (decision 0018), while the
 * packed hours are 4 KB. A run no one holds is collected and unpacked again
 * when next asked for, under the same name.
 */
function runFrom(entry: Entry, cellKey: string, hour: number): Unpacked {
  let known = unpacked.get(entry);
  if (known?.hour !== hour) {
    const id = hourSetId({ cellKey, fetchedAt: entry.fetchedAt, issuedAt: entry.issuedAt, fromHour: hour });
    known = { hour, id, hours: undefined };
    unpacked.set(entry, known);
  }
  return known;
}

/** The run's hour objects: the array a caller still holds, or the packed hours unpacked again. */
function hoursOf(run: Unpacked, entry: Entry): readonly WindHour[] {
  const held = run.hours?.deref();
  if (held) return held;
  const hours = Object.freeze(unpack(entry.hours, run.hour));
  run.hours = new WeakRef(hours);
  return hours;
}

/** The packed hours from `hour` on, as frozen hour objects. */
function unpack(packed: Float64Array | null, hour: number): WindHour[] {
  const hours: WindHour[] = [];
  if (!packed) return hours;
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
  return hours;
}

/**
 * Every answer starts at the current hour: a stale entry's past hours are
 * dropped. `standsIn`: the entry stands in for a failed upstream request.
 */
function toSeries(
  entry: Entry,
  cellKey: string,
  point: LatLon,
  hour: number,
  standsIn: boolean,
): WindSeries | null {
  const run = runFrom(entry, cellKey, hour);
  const hours = hoursOf(run, entry);
  if (hours.length === 0 && entry.unusableHours === 0) return null;
  const stale = standsIn || entry.stale;
  return {
    point,
    issuedAt: entry.issuedAt,
    stale,
    hours,
    hourSet: run.id,
    unusableHours: entry.unusableHours,
  };
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

/** A value another version wrote is a miss, never an error. */
function parseEntry(text: string): Entry | null {
  const parsed = parseShared(text, SharedEntrySchema);
  if (!parsed) return null;
  const { hours, ...rest } = parsed;
  return { ...rest, hours: hours ? Float64Array.from(hours, (v) => v ?? NaN) : null };
}
