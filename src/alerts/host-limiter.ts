/**
 * Two bounds on webhook deliveries in flight: a total, and a smaller one per
 * receiving host, so one slow receiver holds at most its own share of the
 * slots and everyone else's alerts keep going out.
 *
 * Built from p-limit, one limiter per host in front of the shared one: a
 * task waits for its host's slot first and takes a shared slot only once it
 * has it, so a task queued behind a slow host never sits on a shared slot.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export interface HostLimits {
  /** Deliveries in flight at once, across hosts. */
  readonly total: number;
  /** Deliveries in flight at once to one host. */
  readonly perHost: number;
}

export interface HostLimiter {
  /** Runs `task` once both bounds allow it; resolves with its result. */
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
  /** Tasks for `host` accepted and not finished (running or waiting). */
  outstanding(host: string): number;
  /** Tasks accepted and not finished, across hosts. */
  outstandingTotal(): number;
  /**
   * Resolves once at most `count` tasks are outstanding, or after `maxWaitMs`
   * whichever comes first: a slow host's queue drains slowly, and a caller
   * feeding tasks in pages should not wait on it for long.
   */
  drainTo(count: number, maxWaitMs: number): Promise<void>;
}

export function createHostLimiter(limits: HostLimits): HostLimiter {
  if (!(limits.total >= 1 && limits.perHost >= 1)) throw new RangeError('limits must be at least 1');
  const shared = pLimit(limits.total);
  const hosts = new Map<string, { limit: LimitFunction; outstanding: number }>();
  let outstandingTotal = 0;
  let waiters: { count: number; resolve: () => void }[] = [];

  const settle = (): void => {
    const ready = waiters.filter((waiter) => outstandingTotal <= waiter.count);
    waiters = waiters.filter((waiter) => outstandingTotal > waiter.count);
    for (const waiter of ready) waiter.resolve();
  };

  return {
    async run(host, task) {
      let entry = hosts.get(host);
      if (!entry) {
        entry = { limit: pLimit(limits.perHost), outstanding: 0 };
        hosts.set(host, entry);
      }
      const own = entry;
      own.outstanding += 1;
      outstandingTotal += 1;
      try {
        return await own.limit(() => shared(task));
      } finally {
        own.outstanding -= 1;
        outstandingTotal -= 1;
        if (own.outstanding === 0) hosts.delete(host);
        settle();
      }
    },
    outstanding: (host) => hosts.get(host)?.outstanding ?? 0,
    outstandingTotal: () => outstandingTotal,
    drainTo(count, maxWaitMs) {
      if (outstandingTotal <= count) return Promise.resolve();
      return new Promise((resolve) => {
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((other) => other !== waiter);
          resolve();
        }, maxWaitMs);
        waiters.push(waiter);
      });
    },
  };
}
