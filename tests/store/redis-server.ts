/**
 * The Redis server the shared-state tests run against when one answers:
 * WOS_TEST_REDIS_URL (default redis://127.0.0.1:6379). Each test uses its own
 * key prefix so parallel runs never meet. When no server answers those tests
 * skip and say why; WOS_REQUIRE_REDIS=1 turns the skip into a failure (for CI).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { openRedis } from '../../src/store/shared-state/redis.ts';

export const testRedisUrl = process.env['WOS_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Null when Redis answered PING; otherwise why the Redis tests skip (or a throw under WOS_REQUIRE_REDIS=1). */
export async function redisUnavailable(): Promise<string | null> {
  const client = new Redis(testRedisUrl, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED…) says more than the "Connection is closed" the command gets.
  let socketError: unknown;
  client.on('error', (error: unknown) => (socketError ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    const cause = socketError ?? error;
    const reason = `no Redis server at ${new URL(testRedisUrl).host} (${String((cause as { code?: unknown }).code ?? cause)})`;
    if (process.env['WOS_REQUIRE_REDIS'] === '1')
      throw new Error(`WOS_REQUIRE_REDIS=1 but ${reason}`, { cause: error });
    return reason;
  } finally {
    client.disconnect();
  }
}

/**
 * The Redis clients one test file opens, each an "instance", and their one
 * teardown: the file's keys under `prefix` dropped, every client closed.
 */
export function testClients(prefix: string): {
  open: (url?: string) => Redis;
  closeAll: () => Promise<void>;
} {
  const clients: Redis[] = [];
  return {
    open: (url = testRedisUrl) => {
      const client = openRedis(url);
      clients.push(client);
      return client;
    },
    closeAll: async () => {
      const [first] = clients;
      if (first) await dropPrefix(first, prefix);
      for (const client of clients) client.disconnect();
    },
  };
}

/** A key prefix no other test (or run) uses. */
export const testPrefix = (name: string): string => `wos-test:${name}:${randomUUID()}:`;

/** Deletes every key under `prefix` (SCAN, so a shared server is not blocked). */
export async function dropPrefix(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 200 }) as AsyncIterable<string[]>)
    if (keys.length > 0) await client.del(...keys);
}

/**
 * A TCP relay in front of the test Redis, in this process: closing it makes
 * Redis "go away" for the clients that connected through it (their sockets
 * drop and reconnection is refused) without stopping the shared server.
 */
export async function redisRelay(): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(testRedisUrl);
  const { connect } = await import('node:net');
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
