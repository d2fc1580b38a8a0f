import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { LatLon } from '../../core/bearing.ts';
import { cellFlights, flightKey } from './cell-flights.ts';
import { type Clock, ForecastError } from './types.ts';

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

// The grid rule is core's: the browser snaps a route's samples to the same cells before asking.
export { forecastCell, type Cell } from '../../core/forecast-cell.ts';
import type { Cell } from '../../core/forecast-cell.ts';

/** Counted per distinct cell per call; joining an in-flight fetch counts as a hit. */
export interface CellCacheCounts {
  readonly hits: number;
  readonly misses: number;
  readonly upstreamCalls: number;
  /** Cells found fresh in the shared tier. */
  readonly sharedHits: number;
}

/**
 * What one forecast cache decides for itself: its entry, when an entry is
 * fresh, how it is keyed and written in the shared tier, and how an upstream
 * answer becomes an entry. A round is what an entry is fetched for (the UTC
 * hour for the forecast, the model run for the ensemble).
 */
export interface CellCacheRules<S, E, R extends string | number> {
  /** Named in the error when a batched answer leaves a cell out. */
  readonly name: string;
  readonly clock: Clock;
  readonly maxEntries: number;
  /** How old an entry may be and still stand in, marked stale, when upstream fails; also the shared TTL. */
  readonly staleForSeconds: number;
  readonly shared: SharedCacheTier | undefined;
  /** True when the entry answers for this round at this hour without asking again. */
  readonly fresh: (entry: E, round: R, hour: number) => boolean;
  /** When the entry was fetched (Unix s). */
  readonly fetchedAt: (entry: E) => number;
  readonly sharedKey: (cell: Cell, round: R) => string;
  /** ONE upstream request for the cells' centres, an answer (or null) per centre in order. */
  readonly upstream: (centers: readonly LatLon[]) => Promise<readonly (S | null)[]>;
  readonly toEntry: (answer: S | null, fetchedAt: number, round: R) => E;
  readonly serialize: (entry: E) => string;
  /** A value this or another version wrote: an entry, or null for a miss (never an error). */
  readonly parse: (text: string) => E | null;
}

/** An entry found for a cell; `stale` when it stands in for an upstream that failed. */
export interface CellFound<E> {
  readonly entry: E;
  readonly stale: boolean;
}

export interface CellCache<E, R extends string | number> {
  /** The entries of the distinct cells, by cell key; throws upstream's error when a cell has no stand-in. */
  lookup(cells: readonly Cell[], round: R, hour: number): Promise<ReadonlyMap<string, CellFound<E>>>;
  counts(): CellCacheCounts;
}

/**
 * The lookup both forecast caches share, so a cell costs one upstream
 * request per round whichever cache it is in: a fresh entry in memory
 * answers; a cell already being fetched in this round is joined; the rest
 * are looked up in the shared tier and what is still missing goes upstream
 * in ONE batched request, written to memory and the shared tier. An older
 * entry found in the shared tier is kept in memory when newer than ours, to
 * stand in if upstream fails. When it fails, an entry up to
 * `staleForSeconds` old stands in marked stale; otherwise the source's
 * error is thrown.
 */
export function createCellCache<S, E extends object, R extends string | number>(
  rules: CellCacheRules<S, E, R>,
): CellCache<E, R> {
  const { clock, shared } = rules;
  const entries = new LRUCache<string, E>({ max: rules.maxEntries });
  const inFlight = new Map<string, Promise<E>>();
  const counts = { hits: 0, misses: 0, upstreamCalls: 0, sharedHits: 0 };

  /** Reads the cells from the shared tier; a tier that fails counts as empty. */
  async function readShared(cells: readonly Cell[], round: R): Promise<(E | null)[]> {
    if (!shared) return cells.map(() => null);
    try {
      const values = await shared.getMany(cells.map((cell) => rules.sharedKey(cell, round)));
      return cells.map((_, i) => {
        const text = values[i] ?? null;
        return text === null ? null : rules.parse(text);
      });
    } catch {
      return cells.map(() => null);
    }
  }

  function fetchCells(cells: readonly Cell[], round: R, hour: number): Map<string, Promise<E>> {
    const batch = (async () => {
      const found = await readShared(cells, round);
      const results = new Map<string, E>();
      const missing: Cell[] = [];
      cells.forEach((cell, i) => {
        const entry = found[i];
        if (entry && rules.fresh(entry, round, hour)) {
          counts.sharedHits += 1;
          results.set(cell.key, entry);
        } else {
          const local = entries.peek(cell.key);
          if (entry && (!local || rules.fetchedAt(local) < rules.fetchedAt(entry)))
            entries.set(cell.key, entry);
          missing.push(cell);
        }
      });
      if (missing.length === 0) return results;
      counts.upstreamCalls += 1;
      const fetched = await rules.upstream(missing.map((c) => c.center));
      const fetchedAt = Math.floor(clock() / 1000);
      missing.forEach((cell, i) => {
        const entry = rules.toEntry(fetched[i] ?? null, fetchedAt, round);
        shared
          ?.set(rules.sharedKey(cell, round), rules.serialize(entry), rules.staleForSeconds * 1000)
          .catch(() => undefined);
        results.set(cell.key, entry);
      });
      return results;
    })();
    return cellFlights(cells, round, batch, inFlight, (key, entry) => entries.set(key, entry), rules.name);
  }

  function fallback(key: string, round: R, hour: number, error: unknown): CellFound<E> {
    const old = entries.peek(key);
    if (old && rules.fresh(old, round, hour)) return { entry: old, stale: false };
    const nowSeconds = Math.floor(clock() / 1000);
    if (
      !(error instanceof ForecastError) ||
      !old ||
      nowSeconds - rules.fetchedAt(old) > rules.staleForSeconds
    )
      throw error;
    return { entry: old, stale: true };
  }

  async function lookup(cells: readonly Cell[], round: R, hour: number): Promise<Map<string, CellFound<E>>> {
    const pending = new Map<string, Promise<E>>();
    const misses: Cell[] = [];
    const seen = new Set<string>();
    for (const cell of cells) {
      if (seen.has(cell.key)) continue;
      seen.add(cell.key);
      const cached = entries.get(cell.key);
      const joined =
        cached && rules.fresh(cached, round, hour)
          ? Promise.resolve(cached)
          : inFlight.get(flightKey(round, cell.key));
      if (joined) pending.set(cell.key, joined);
      else misses.push(cell);
    }
    counts.hits += pending.size;
    counts.misses += misses.length;
    if (misses.length > 0)
      for (const [key, promise] of fetchCells(misses, round, hour)) pending.set(key, promise);

    const settled = await Promise.allSettled([...pending.values()]);
    const resolved = new Map<string, CellFound<E>>();
    [...pending.keys()].forEach((key, i) => {
      const outcome = settled[i];
      if (!outcome) return;
      resolved.set(
        key,
        outcome.status === 'fulfilled'
          ? { entry: outcome.value, stale: false }
          : fallback(key, round, hour, outcome.reason),
      );
    });
    return resolved;
  }

  return { lookup, counts: () => ({ ...counts }) };
}

/** The JSON a shared-tier value holds, checked by `schema`; anything else is a miss (null). */
export function parseShared<T>(text: string, schema: z.ZodType<T>): T | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
