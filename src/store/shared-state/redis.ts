/**
 * The Redis connection every shared piece of state uses (forecast cache,
 * MCP rate limits, the alert job's lock) when `REDIS_URL` is set.
 *
 * ioredis rather than node-redis: it reconnects on its own with a backoff we
 * choose, can bound every command with `commandTimeout`, and is the client
 * rate-limiter-flexible's Redis backend is written and tested against. The
 * options favour answering over waiting: a command fails after
 * {@link REDIS_COMMAND_TIMEOUT_MS} instead of waiting for Redis to come
 * back, so callers fall back to memory (or a clear error) and never hang or
 * crash. Commands sent while the client is still connecting are queued
 * (within that bound), so a cold instance's first question already uses
 * the shared state.
 */
import { Redis } from 'ioredis';

/**
 * How long one command may take. A local or same-region Redis answers in
 * about a millisecond; 500 ms only trips when it is unreachable, and then
 * costs a question at most half a second before the in-memory path answers.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface RedisOptions {
  /** Called once per outage (not per failed command), e.g. to log it. */
  readonly onError?: (error: Error) => void;
}

/** Opens a client for `url` (`redis://` or `rediss://`); it connects in the background. */
export function openRedis(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    // Fail queued commands at the first failed reconnection instead of after 20.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let reported = false;
  // Without a listener ioredis reports every failed reconnection as an unhandled error.
  client.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    options.onError?.(error);
  });
  client.on('ready', () => {
    reported = false;
  });
  return client;
}
