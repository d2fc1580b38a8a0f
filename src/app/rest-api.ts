/**
 * The REST API's part of the composition root, apart from `app.ts` so the REST function
 * (`api/_entries/rest.ts`) starts without the settings' zod schema: it reads its settings with
 * `functionSettings` (`settings/plain-settings.ts`), and its replier loads the endpoints' definitions (zod and the
 * schemas) with the first request its route table cannot answer alone (decision 0045).
 */
import { platformClientAddress } from '../http/client-address.ts';
import { createReplier, toFetchHandler, type EndpointTable } from '../rest/replier.ts';
import { Graph } from './graph.ts';
import { restData, sourceStatus } from './parts.ts';
import type { Settings } from './settings.ts';

/** The synchronous endpoints' definitions, and with them zod and the schemas, loaded on first need. */
const endpointDefinitions = async (): Promise<EndpointTable> =>
  (await import('../rest/endpoints.ts')).ENDPOINTS;

/**
 * The REST API: built at once from the public URLs (no I/O); its data endpoints' sources (`restData`)
 * are built on their first request, so `/v1/tailwind` and a cold start load no data code, and the
 * endpoints' definitions with the first query a compiled reader does not accept, so they load no zod
 * either.
 */
export const restApi = (graph: Graph) =>
  createReplier(graph.settings.urls, endpointDefinitions, {
    data: graph.get(restData),
    sources: () => graph.get(sourceStatus).reports(),
  });

/**
 * The REST API's replier for its Vercel function (`api/_entries/rest.ts`, which writes it to Node's
 * response with `nodeRestHandler`): its bundle holds no MCP, store or sign-in code.
 */
export const restReplier = (settings: Settings) => new Graph(settings).get(restApi);

/**
 * The REST API as a fetch function over `replier`. Vercel names the caller in `x-real-ip`, which the
 * data endpoints' per-address limit counts by.
 */
export function restFunction(replier: ReturnType<typeof restReplier>) {
  const handle = toFetchHandler(replier);
  return (request: Request): Promise<Response> => handle(request, platformClientAddress(request.headers));
}
