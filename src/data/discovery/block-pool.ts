import { Worker } from 'node:worker_threads';
import { loadTownsIn } from '../geocoding/gazetteer-towns.ts';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import { discoverBlock, type BlockResult, type BlockTask } from './block-discovery.ts';
import { hgtElevationSource } from './hgt-elevation.ts';

export interface PoolOptions {
  /** Worker threads; 0 discovers in this thread (small files, tests). */
  readonly workers: number;
  readonly demDir: string;
  readonly maxTiles: number;
  /** Each worker's V8 old generation, MB: a block too large for it stops the run with a plain error. */
  readonly workerHeapMb?: number;
  /** The country lookup for the in-thread case (workers load their own). */
  readonly countryOf: () => Promise<CountryOf>;
  readonly signal?: AbortSignal;
}

const WORKER = new URL('./block-worker.ts', import.meta.url);

/**
 * Discovers the blocks, `workers` at a time, and yields their results in the
 * order of `tasks` whatever order they finish in: what the build writes, and
 * so the ids it gives, never depends on which thread was faster. At most
 * twice the workers' count of blocks run ahead of the one awaited, so
 * finished results waiting their turn stay few.
 *
 * Hand-written rather than a pool library (piscina, tinypool): ordered
 * results with bounded look-ahead and a stop on the first failure are the
 * whole of it, a few dozen lines over `node:worker_threads`.
 */
export async function* discoverBlocks(
  tasks: readonly BlockTask[],
  options: PoolOptions,
): AsyncGenerator<BlockResult> {
  if (options.workers <= 0 || tasks.length <= 1) {
    const elevation = hgtElevationSource(options.demDir, { maxTiles: options.maxTiles });
    const [countryOf, townsIn] = await Promise.all([options.countryOf(), loadTownsIn()]);
    for (const task of tasks) {
      options.signal?.throwIfAborted();
      yield await discoverBlock(task, elevation, countryOf, townsIn);
    }
    return;
  }
  const count = Math.min(options.workers, tasks.length);
  const workers = Array.from(
    { length: count },
    () =>
      new Worker(WORKER, {
        workerData: { demDir: options.demDir, maxTiles: options.maxTiles },
        resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb ?? 1536 },
      }),
  );
  const idle = [...workers];
  const waiting: (() => void)[] = [];
  const results = new Map<number, Promise<BlockResult>>();
  let next = 0;

  const run = async (task: BlockTask): Promise<BlockResult> => {
    while (idle.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    const worker = idle.pop() as Worker;
    try {
      return await new Promise<BlockResult>((resolve, reject) => {
        const done = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const onMessage = (message: { result?: BlockResult; error?: string }) => {
          done();
          if (message.result) resolve(message.result);
          else reject(new Error(`block ${task.block.index}: ${message.error ?? 'failed'}`));
        };
        const onError = (error: Error) => {
          done();
          const heap = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
          reject(
            new Error(
              heap
                ? `block ${task.block.index} (${task.block.nodes.toLocaleString('en-GB')} road nodes) ran out of its worker's memory; lower --block-nodes`
                : `block ${task.block.index}: ${error.message}`,
              { cause: error },
            ),
          );
        };
        const onExit = (code: number) => {
          done();
          reject(new Error(`block ${task.block.index}: its worker stopped (exit ${code})`));
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage(task);
      });
    } finally {
      idle.push(worker);
      waiting.shift()?.();
    }
  };
  const fill = (upTo: number) => {
    while (next < tasks.length && next < upTo) {
      const task = tasks[next] as BlockTask;
      const promise = run(task);
      promise.catch(() => undefined); // awaited in order below; not unhandled meanwhile
      results.set(next, promise);
      next++;
    }
  };
  try {
    for (let at = 0; at < tasks.length; at++) {
      options.signal?.throwIfAborted();
      fill(at + 2 * count);
      const result = await (results.get(at) as Promise<BlockResult>);
      results.delete(at);
      yield result;
    }
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
