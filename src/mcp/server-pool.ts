import type { McpServer } from '@modelcontextprotocol/server';

/** Idle servers kept per pool: as many as requests usually overlap on one instance, and a few more. */
export const MAX_IDLE_SERVERS = 16;

/** Servers handed out per era: the SDK leaves a negotiated protocol version on a modern one. */
export type Era = 'legacy' | 'modern';

export interface ServerPool {
  /** An idle server of this era, or a new one; it comes back by itself when the SDK closes its exchange. */
  readonly take: (era: Era) => McpServer;
  /** Idle servers per era, for tests. */
  readonly idle: (era: Era) => number;
}

/**
 * Servers reused across requests instead of built for each. The SDK's
 * stateless serving connects the factory's server to a transport for one
 * exchange and closes it after the answer, and refuses a server that is still
 * connected, so a server serves one request at a time: a pool holds the idle
 * ones, and concurrent requests take different servers. A server holds only
 * what every request of its address shares (the tool list, the schemas,
 * the handlers over the data); whatever differs per request (the caller,
 * the public URLs, the limit's key) travels with the request in the SDK's
 * `authInfo` and reaches the tool handler through its context, never the
 * server. Building a server registers every tool (the public address 3, the
 * rider one 10): that work, and the garbage of it under load, happened on
 * every request before.
 *
 * The SDK keeps some connection state on a server between exchanges (the
 * negotiated protocol version of a modern request, the client's declared
 * identity and capabilities, a 2025 client's log level): pools are per era,
 * and none of the rest is read by the tools, which send the client nothing
 * but their result.
 */
export function createServerPool(build: () => McpServer, maxIdle = MAX_IDLE_SERVERS): ServerPool {
  const pools: Record<Era, McpServer[]> = { legacy: [], modern: [] };
  const take = (era: Era): McpServer => {
    const idle = pools[era];
    let server = idle.pop();
    // A server still connected (an exchange the SDK has not closed yet) is never handed out twice.
    while (server && server.isConnected()) server = idle.pop();
    server ??= build();
    const chosen = server;
    chosen.server.onclose = () => {
      if (idle.length < maxIdle && !idle.includes(chosen)) idle.push(chosen);
    };
    return chosen;
  };
  return { take, idle: (era) => pools[era].length };
}
