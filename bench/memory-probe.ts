/**
 * Loaded into the server by the memory bench (`node --import
 * bench/memory-probe.ts …`, a Node option, not a V8 one) when it asks for the
 * split of resident memory: every `BENCH_MEMORY_PROBE_MS` (default 500) it
 * appends `process.memoryUsage()` and the V8 heap spaces' sizes, as one JSON
 * line, to the file named by `BENCH_MEMORY_PROBE_FILE`. Never loaded by the
 * service itself. The timer is unref'd, so it never keeps a server alive.
 * Node loads it into every thread: under `npm start` both the main thread
 * and the server's worker thread write samples, each with its thread id
 * (the heap figures are that thread's own; `rss` is the whole process's).
 */
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

/** One sample: MB figures, rounded to 0.1. */
export interface MemorySample {
  readonly at: number;
  /** The thread that wrote it: 0 for the main thread. */
  readonly thread: number;
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
  /** Committed size of each V8 heap space (new_space, old_space, code_space, large_object_space, …). */
  readonly spaces: Readonly<Record<string, number>>;
}

const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

const file = process.env['BENCH_MEMORY_PROBE_FILE'];
if (file !== undefined && file !== '') {
  const every = Number(process.env['BENCH_MEMORY_PROBE_MS'] ?? 500);
  const sample = () => {
    const usage = process.memoryUsage();
    const spaces: Record<string, number> = {};
    for (const space of getHeapSpaceStatistics()) spaces[space.space_name] = mb(space.space_size);
    const line: MemorySample = {
      at: Math.round(performance.now()),
      thread: threadId,
      rss: mb(usage.rss),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      spaces,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, every > 0 ? every : 500).unref();
}
