/**
 * How many Overpass queries may be in flight at once. Public instances give
 * a client a few slots and ask for fair use; one search reaches up to nine
 * areas, and ten searches in new places at once used to send dozens of
 * queries. A slot is taken before an area's mapping starts (so its time-out
 * counts from there, not from the queue) and given back when it ends.
 */
export interface QuerySlots {
  /** Waits for a free slot; resolves to the function that frees it. Rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<() => Promise<void>>;
}

/** `limit` slots in this process, handed out first come, first served. */
export function memorySlots(limit: number): QuerySlots {
  let free = Math.max(1, limit);
  const queue: (() => void)[] = [];
  const give = async () => {
    const next = queue.shift();
    if (next) next();
    else free++;
  };
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (free > 0) {
        free--;
        return Promise.resolve(give);
      }
      return new Promise((resolve, reject) => {
        const take = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(give);
        };
        const onAbort = () => {
          const at = queue.indexOf(take);
          if (at >= 0) queue.splice(at, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(take);
      });
    },
  };
}

/** A slot of `first` (this instance's), then one of `then` (every instance's), freed in reverse. */
export function bothSlots(first: QuerySlots, then: QuerySlots): QuerySlots {
  return {
    async acquire(signal) {
      const own = await first.acquire(signal);
      try {
        const shared = await then.acquire(signal);
        return async () => {
          await shared();
          await own();
        };
      } catch (error) {
        await own();
        throw error;
      }
    },
  };
}
