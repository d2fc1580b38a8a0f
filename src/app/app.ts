/**
 * The composition root: every part of the application declared once, in one graph (`graph.ts`), the
 * parts in `parts.ts`. A part is built on first use from the parts it names; heavy ones load their code
 * with `import()`, so a request compiles only what it reaches. The Node server and each Vercel function
 * take their parts from this graph, and a function's bundle keeps only what it reaches. The REST handler
 * is imported here and nowhere in `parts.ts`, so the MCP and cron functions, wired in `mcp-function.ts`
 * and `cron-function.ts`, start without it.
 */
import { createReplier, toFetchHandler, type EndpointTable } from '../rest/replier.ts';
import { platformClientAddress } from '../http/client-address.ts';
import { Graph } from './graph.ts';
import { alertJob, mcpConfig, mcpService, restData, sourceStatus, store, toolData } from './parts.ts';
import { settingsFromProcess, type Settings } from './settings.ts';

/** The synchronous endpoints' definitions, and with them zod and the schemas, loaded on first need. */
const endpointDefinitions = async (): Promise<EndpointTable> =>
  (await import('../rest/endpoints.ts')).ENDPOINTS;

/**
 * The REST API: built at once from the public URLs (no I/O); its data endpoints' sources (`restData`)
 * are built on their first request, so `/v1/tailwind` and a cold start load no data code, and the
 * endpoints' definitions with the first query a compiled reader does not accept, so they load no zod
 * either (decision 0045).
 */
const restApi = (graph: Graph) =>
  createReplier(graph.settings.urls, endpointDefinitions, {
    data: graph.get(restData),
    sources: () => graph.get(sourceStatus).reports(),
  });

/** For `npm start` (`src/server/main.ts`), the scripts and the tests. */
export function createApp(settings: Settings = settingsFromProcess()) {
  const graph = new Graph(settings);
  const [restReplier, data, mcp] = [graph.get(restApi), graph.get(toolData), graph.get(mcpService)];
  const [opened, guard, job] = [graph.get(store), graph.get(mcpConfig), graph.get(alertJob)];
  const sources = graph.get(sourceStatus);
  return { settings, restReplier, data, store: opened, mcpConfig: guard, mcp, alertJob: job, sources };
}

/**
 * The REST API's replier for its Vercel function (`api/_entries/rest.ts`, which writes it to Node's
 * response with `nodeRestHandler`): its bundle holds no MCP, store or sign-in code.
 */
export const restReplier = (settings = settingsFromProcess()) => new Graph(settings).get(restApi);

/**
 * The REST API as a fetch function over `replier`. Vercel names the caller in `x-real-ip`, which the
 * data endpoints' per-address limit counts by.
 */
export function restFunction(replier = restReplier()) {
  const handle = toFetchHandler(replier);
  return (request: Request): Promise<Response> => handle(request, platformClientAddress(request.headers));
}
