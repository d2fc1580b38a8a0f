/**
 * Store writes that run one after another behind the work that produced
 * them, which never waits for them: on PostgreSQL each commit waits for the
 * disk, and that wait overlaps the next page's work instead. Both halves of
 * the alert job write this way (evaluation a page of alerts and the cursor,
 * delivery a batch of outcomes).
 */
export interface WriteBehind {
  /** True once a write failed: the work should stop, as nothing more can be recorded. */
  readonly failed: boolean;
  /** Queues a write after those already queued; skipped once one has failed. */
  push(write: () => Promise<void>): void;
  /** Waits for every queued write, then throws the first failure, if any. */
  settled(): Promise<void>;
}

export function createWriteBehind(): WriteBehind {
  let queue: Promise<void> = Promise.resolve();
  // Held here rather than left in the promise, which nothing awaits while the work goes on.
  let error: { readonly cause: unknown } | null = null;
  return {
    get failed(): boolean {
      return error !== null;
    },
    push(write) {
      queue = queue.then(async () => {
        if (error) return;
        try {
          await write();
        } catch (cause) {
          error ??= { cause };
        }
      });
    },
    async settled() {
      await queue;
      if (error) throw error.cause;
    },
  };
}
