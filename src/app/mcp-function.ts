/**
 * The MCP function's wiring, apart from `app.ts` so its bundle's entry holds no REST code: a cold
 * start of `api/mcp` evaluates only the graph, the settings' entries and the path table before the
 * first request picks its part.
 */
import { platformClientAddress } from '../http/client-address.ts';
import { Graph } from './graph.ts';
import { mcpService, publicMcp, store } from './parts.ts';
import { partOf } from './paths.ts';
import type { Settings } from './settings.ts';

/**
 * `/mcp`, `/mcp/rider` and the sign-in paths (`api/_entries/mcp.ts`); the public address (the path table's
 * `mcp-public` part) goes straight to its endpoint, so a public call never loads the rider side's
 * dispatch. Vercel names the caller in `x-real-ip`; the address travels beside the request from here.
 * The entry reads `settings` without building the settings' schema (`functionSettings`, decision 0045).
 */
export function mcpFunction(settings: Settings) {
  const graph = new Graph(settings);
  const [publicEndpoint, service] = [graph.get(publicMcp), graph.get(mcpService)];
  // Every first request of this function reads the store when discovery runs on demand (the areas
  // around a public call's point, the rider side's tables): it starts opening now, so its connection
  // and migration check wait on the database while the endpoint is compiled, not after (decision 0045).
  // A failure here is the first user's to see; `lazy` forgets it, and that user opens the store again.
  if (settings.discovery.mode === 'online')
    graph
      .get(store)()
      .catch(() => undefined);
  return async (request: Request): Promise<Response> => {
    const client = { address: platformClientAddress(request.headers) ?? 'unknown' };
    if (partOf(new URL(request.url).pathname) === 'mcp-public')
      return (await publicEndpoint())(request, client);
    return (await service()).handle(request, client);
  };
}
