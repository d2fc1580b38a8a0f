import { stopAll, stopAllOnExit } from '../scripts/service/launch.ts';

/**
 * Stops every process a bench started and exits 1 once `seconds` have
 * passed: a server that never answers must not keep a bench (or CI) waiting.
 */
export function startWatchdog(what: string, seconds: number): NodeJS.Timeout {
  const watchdog = setTimeout(() => {
    console.error(`${what} ran past its time limit; stopping.`);
    void stopAll().finally(() => process.exit(1));
  }, seconds * 1000);
  watchdog.unref();
  return watchdog;
}

/**
 * Runs one bench section as a command of its own (`node bench/<section>.ts`):
 * the processes it starts are stopped on every exit, a time limit when one is
 * given, exit 0 when its figures are valid and 1 otherwise or on a failure.
 */
export async function runBenchCommand(
  what: string,
  run: () => Promise<boolean>,
  limitSeconds?: number,
): Promise<never> {
  stopAllOnExit();
  const watchdog = limitSeconds === undefined ? undefined : startWatchdog(what, limitSeconds);
  try {
    const valid = await run();
    clearTimeout(watchdog);
    process.exit(valid ? 0 : 1);
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await stopAll();
    process.exit(1);
  }
}
