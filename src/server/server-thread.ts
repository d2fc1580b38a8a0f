import { Worker } from 'node:worker_threads';
import { serverHeapLimits } from './heap-limits.ts';

/** The stop signals a process manager or a terminal sends, passed on to the server thread. */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs the server module `entry` (`src/server/main.ts`) in a worker thread
 * with the heap limits of `serverHeapLimits`: Node's `resourceLimits` set
 * them for that thread's V8 heap without a V8 flag on the command line, so
 * the server's memory no longer follows the size of the host (decision
 * 0030) nor depends on a flag an operator must remember. A worker
 * thread receives no signals, so SIGTERM and SIGINT are passed on to it as
 * messages (a second one stops the process at once, as before); the process
 * exits with the thread's exit code, and an error that ends the thread (an
 * uncaught exception, a heap beyond its limit) is printed and exits 1.
 */
export function serveInWorker(
  entry: URL,
  /** The thread's environment, when not this process's (`npm start -- --live` adds WOS_DATA). */
  env?: NodeJS.ProcessEnv,
  resourceLimits = serverHeapLimits(),
): Worker {
  const worker = new Worker(entry, { resourceLimits, ...(env ? { env } : {}) });
  for (const signal of STOP_SIGNALS) process.once(signal, () => worker.postMessage(signal));
  // The thread's exit code is 1 after such an error.
  worker.on('error', (error) => console.error(error));
  worker.on('exit', (code) => process.exit(code));
  return worker;
}
