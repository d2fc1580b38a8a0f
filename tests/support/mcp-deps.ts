import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createEnsembleCache } from '../../src/data/forecast/ensemble-cache.ts';
import { createDemoEnsemble } from '../../src/data/forecast/ensemble-demo.ts';
import type { ForecastSource } from '../../src/data/forecast/types.ts';
import { lazyGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import type { McpConfig } from '../../src/mcp/endpoint-guard.ts';
import { mcpConfigFromEnv } from './settings.ts';
import type { McpDeps } from '../../src/mcp/context.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';

/** A fixed "now" for the tests: Saturday 21 November 2026, 10:20 UTC. */
export const TEST_NOW = Date.UTC(2026, 10, 21, 10, 20);

/** The embedded data with the demo forecast and the demo ensemble, at a fixed time. */
export function testDeps(overrides: Partial<McpDeps> = {}): McpDeps {
  const now = overrides.now ?? (() => TEST_NOW);
  return {
    catalog: createSegmentCatalog(loadEmbeddedSegments()),
    geocoder: lazyGazetteer(),
    forecast: createForecastCache(createDemoForecast({ clock: now }), { clock: now }),
    ensemble: createEnsembleCache(createDemoEnsemble({ clock: now }), { clock: now }),
    now,
    ...overrides,
  };
}

export const TEST_ORIGIN = 'http://localhost:3000';
export const TEST_MCP_URL = `${TEST_ORIGIN}/mcp`;

/** The public endpoint as `npm start` builds it, with test data and optional config overrides. */
export function testEndpoint(deps: McpDeps = testDeps(), mcp: Partial<McpConfig> = {}): McpEndpoint {
  return createMcpEndpoint({
    deps,
    api: {},
    mcp: { ...mcpConfigFromEnv({}), ...mcp },
    tools: PUBLIC_TOOLS,
  });
}

/** A forecast source that always fails the way the given error says. */
export function failingForecast(error: Error): ForecastSource {
  return { id: 'open-meteo', hourly: () => Promise.reject(error) };
}
