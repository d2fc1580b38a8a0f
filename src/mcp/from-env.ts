import { forecastFromEnv } from '../data/forecast/select-forecast.ts';
import { geocoderFromEnv } from '../data/geocoding/select-geocoder.ts';
import { createSegmentCatalog } from '../data/segments/catalog.ts';
import { segmentsFromEnv } from '../data/segments/load.ts';
import { configFromEnv } from '../rest/urls.ts';
import { mcpConfigFromEnv } from './endpoint-guard.ts';
import type { McpDeps } from './context.ts';
import { createMcpEndpoint, type McpEndpoint } from './endpoint.ts';
import { PUBLIC_TOOLS } from './tools/public.ts';

type Env = Record<string, string | undefined>;

/** The data sources the environment selects; the catalog and gazetteer load once here. */
export function depsFromEnv(env: Env): McpDeps {
  return {
    catalog: createSegmentCatalog(segmentsFromEnv(env)),
    geocoder: geocoderFromEnv(env),
    forecast: forecastFromEnv(env),
    now: Date.now,
  };
}

/** The public MCP endpoint as `npm start` and the Vercel function serve it. */
export function mcpEndpointFromEnv(env: Env, deps: McpDeps = depsFromEnv(env)): McpEndpoint {
  return createMcpEndpoint({
    deps,
    api: configFromEnv(env),
    mcp: mcpConfigFromEnv(env),
    tools: PUBLIC_TOOLS,
  });
}
