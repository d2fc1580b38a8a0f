/**
 * The composition root: every part of the application declared once, in one graph (`graph.ts`), the
 * parts in `parts.ts`. A part is built on first use from the parts it names; heavy ones load their code
 * with `import()`, so a request compiles only what it reaches. The Node server and each Vercel function
 * take their parts from this graph, and a function's bundle keeps only what it reaches. The REST API's
 * part (`rest-api.ts`) is imported here and nowhere in `parts.ts`, so the MCP and cron functions, wired
 * in `mcp-function.ts` and `cron-function.ts`, start without it; the REST function starts from
 * `rest-api.ts` alone, without the settings' schema.
 */
import { Graph } from './graph.ts';
import { alertJob, mcpConfig, mcpService, sourceStatus, store, toolData } from './parts.ts';
import { restApi } from './rest-api.ts';
import { settingsFromProcess, type Settings } from './settings.ts';

/** For `npm start` (`src/server/main.ts`), the scripts and the tests. */
export function createApp(settings: Settings = settingsFromProcess()) {
  const graph = new Graph(settings);
  const [restReplier, data, mcp] = [graph.get(restApi), graph.get(toolData), graph.get(mcpService)];
  const [opened, guard, job] = [graph.get(store), graph.get(mcpConfig), graph.get(alertJob)];
  const sources = graph.get(sourceStatus);
  return { settings, restReplier, data, store: opened, mcpConfig: guard, mcp, alertJob: job, sources };
}
