import { McpServer } from '@modelcontextprotocol/server';
import { SERVICE_NAME, SERVICE_VERSION } from '../core/service-facts.ts';
import type { ToolContext } from './context.ts';
import type { RateLimiter } from './rate-limit.ts';
import { withCachedJsonSchema } from './schema-cache.ts';
import { ToolError, type ToolDefinition } from './tool.ts';

export const SERVER_INFO = { name: SERVICE_NAME, title: SERVICE_NAME, version: SERVICE_VERSION };

const INSTRUCTIONS =
  'Tailwind and headwind on cycling segments. Speeds are km/h, distances metres, times ISO 8601 UTC with ' +
  'a local form and time_zone beside them; tell riders the local time. ' +
  'Start with find_tailwind_segments (a place or coordinates), then get_segment for one id; ' +
  'for a whole route (GPX, GeoJSON or points) use get_route_wind. ' +
  'A positive tailwind_kmh helps the rider, a negative one is a headwind. ' +
  'When forecast.source is "demo" the weather is synthetic: tell the user it is not a real forecast.';

export interface ServerSetup {
  readonly tools: readonly ToolDefinition[];
  readonly context: ToolContext;
  readonly limiter: RateLimiter;
  /** The key the per-connection limit counts against. */
  readonly limitKey: string;
}

function errorResult(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

/**
 * One server instance for one HTTP request (the SDK's stateless serving).
 * Every tool is registered through here, so limits and the turn of errors
 * into `isError` results are decided in one place. Unexpected failures are
 * logged and answered without internals.
 */
export function buildServer({ tools, context, limiter, limitKey }: ServerSetup): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: withCachedJsonSchema(tool.inputSchema),
        outputSchema: withCachedJsonSchema(tool.outputSchema),
        annotations: tool.annotations,
      },
      async (input: unknown) => {
        const decision = await limiter.take(limitKey);
        if (!decision.allowed) {
          return errorResult(
            `Rate limit reached for this connection. Wait ${decision.retryAfterS} s before the next call; ` +
              'the answers do not change within the hour, so reuse the last one if you can.',
          );
        }
        try {
          // The SDK has validated `input` against the schema (defaults applied) before calling us.
          const answer = await tool.run(input as Parameters<typeof tool.run>[0], context);
          return {
            content: [{ type: 'text' as const, text: answer.summary }],
            structuredContent: answer.data as Record<string, unknown>,
          };
        } catch (error) {
          if (error instanceof ToolError) return errorResult(error.message);
          console.error(`Tool ${tool.name} failed:`, error);
          return errorResult(
            `${tool.name} failed unexpectedly on the server. Try again; if it persists, report it.`,
          );
        }
      },
    );
  }
  return server;
}
