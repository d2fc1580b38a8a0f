/**
 * When an email or push delivery that failed is tried again: 5 minutes after
 * the first failure, doubling to at most 6 hours, 5 attempts in all. The
 * alert job runs every 15 minutes, so in practice a failure is retried on
 * the next run, then every other run, and so on; a window that ends first
 * is not sent at all. The webhook keeps its own rule (every run, 5 attempts).
 */

/** Attempts per delivery, the successful one included. */
export const CHANNEL_MAX_ATTEMPTS = 5;

const FIRST_RETRY_S = 5 * 60;
const LONGEST_WAIT_S = 6 * 60 * 60;

/** Unix seconds of the next try after `attempts` attempts (1 or more) have failed. */
export function nextAttemptAt(nowS: number, attempts: number): number {
  const wait = FIRST_RETRY_S * 2 ** Math.max(0, attempts - 1);
  return nowS + Math.min(wait, LONGEST_WAIT_S);
}
