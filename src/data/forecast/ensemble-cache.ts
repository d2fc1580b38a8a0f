import { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { FORECAST_GRID_DEG } from './cache.ts';
import {
  type CellCacheCounts,
  createCellCache,
  forecastCell,
  parseShared,
  type SharedCacheTier,
} from './cell-cache.ts';
import type { EnsembleSeries, EnsembleSource } from './ensemble-types.ts';
import { type Clock, FORECAST_HOURS, hourStart } from './types.ts';

/** Counted per distinct cell per call, like the deterministic cache; joining an in-flight fetch is a hit. */
export type EnsembleCacheStats = CellCacheCounts;

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
  const cache = createCellCache({
    name: 'ensemble cache',
    clock,
    maxEntries: options.maxEntries ?? 4000,
    staleForSeconds: options.staleForSeconds ?? 12 * 3600,
    shared: options.shared,
    fresh: (entry: Entry, version: string, hour: number) =>
      entry.version === version &&
      (entry.empty || (entry.times.at(-1) ?? -Infinity) >= hour + (FORECAST_HOURS - 1) * 3600),
    fetchedAt: (entry) => entry.fetchedAt,
    sharedKey: (cell, version) => `${source.model}:${version}:${cell.key}`,
    upstream: (centers) => source.hourly(centers),
    toEntry: (series, fetchedAt, version) => toEntry(series, version, source, fetchedAt),
    serialize: serializeEntry,
    parse: parseEntry,
  });

  async function hourly(points: readonly LatLon[]): Promise<readonly (EnsembleSeries | null)[]> {
    const hour = hourStart(clock());
    const run = await source.currentRun();
    const version = run === null ? `h${hour}` : String(run);
    const cells = points.map((point) => forecastCell(point, gridDeg));
    const found = await cache.lookup(cells, version, hour);
    return cells.map((cell, i) => {
      const cached = found.get(cell.key);
      const point = points[i];
      return cached && point ? toSeries(cached.entry, point, hour, cached.stale) : null;
    });
  }

  return {
    id: source.id,
    model: source.model,
    members: source.members,
    currentRun: () => source.currentRun(),
    hourly,
    stats: () => cache.counts(),
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

/** A value another version wrote, or one whose members do not fit its hours, is a miss, never an error. */
function parseEntry(text: string): Entry | null {
  const parsed = parseShared(text, SharedEntrySchema);
  if (!parsed) return null;
  const bytes = Buffer.from(parsed.packed, 'base64');
  if (bytes.byteLength !== parsed.times.length * parsed.members * 4) return null;
  const packed = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { ...parsed, packed };
}
