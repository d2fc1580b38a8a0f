/**
 * One upstream request in flight per forecast cell and round (a UTC hour for the forecast, a model
 * run for the ensemble). A batched fetch serves many cells at once; each cell gets its own promise,
 * remembered until it settles, so a concurrent caller asking for the same cell in the same round
 * joins it instead of asking upstream again. Both forecast caches share this rule.
 */

/** The key a cell's pending fetch is remembered under. */
export const flightKey = (round: string | number, cellKey: string): string => `${round}|${cellKey}`;

/**
 * Splits one batched fetch into a promise per cell, each keeping its entry (`keep`) when it
 * arrives and registered in `inFlight` until it settles.
 */
export function cellFlights<E>(
  cells: readonly { readonly key: string }[],
  round: string | number,
  batch: Promise<ReadonlyMap<string, E>>,
  inFlight: Map<string, Promise<E>>,
  keep: (cellKey: string, entry: E) => void,
  cacheName: string,
): Map<string, Promise<E>> {
  const promises = new Map<string, Promise<E>>();
  for (const cell of cells) {
    const key = flightKey(round, cell.key);
    const promise = batch.then((results) => {
      const entry = results.get(cell.key);
      if (entry === undefined) throw new Error(`${cacheName}: no entry for cell ${cell.key}`);
      keep(cell.key, entry);
      return entry;
    });
    const forget = () => inFlight.delete(key);
    promise.then(forget, forget);
    inFlight.set(key, promise);
    promises.set(cell.key, promise);
  }
  return promises;
}
