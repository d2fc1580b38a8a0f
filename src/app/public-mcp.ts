/**
 * The public MCP address `/mcp`: the public tools over the data, no store and
 * no authorization server. Loaded with `import()` by the composition root, so
 * the REST and cron functions never compile the MCP server.
 */
import type { Redis } from 'ioredis';
import type { McpDeps } from '../mcp/context.ts';
import type { McpConfig } from '../mcp/endpoint-guard.ts';
import { createMcpEndpoint, type McpEndpoint } from '../mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../mcp/tools/public.ts';
import type { Settings } from './settings.ts';
import { PARTS } from './paths.ts';
import { sharedMcpLimiter } from './shared-limits.ts';

export async function openPublicMcp(
  settings: Settings,
  mcp: McpConfig,
  deps: McpDeps,
  redis: Redis | undefined,
): Promise<McpEndpoint> {
  const limiter = await sharedMcpLimiter(redis, mcp, PARTS['mcp-public'].rate);
  return createMcpEndpoint({ ...limiter, deps, api: settings.urls, mcp, tools: PUBLIC_TOOLS });
}
