import { McpServer, type AuthInfo, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { SERVICE_NAME, SERVICE_VERSION } from '../core/service-facts.ts';
import { WIND_HEIGHT_FACTOR } from '../core/power-model.ts';
import { FLAG_RULES, RIDEABLE_RULE } from './schemas/common.ts';
import type { McpDeps, RequestFacts } from './context.ts';
import type { SchemaAudience } from './json-schema.ts';
import { admitCall, type CallAllowance } from '../service/call-allowance.ts';
import { prebuiltSchema } from './prebuilt-schemas.ts';
import { ANSWERS_CHECKED } from './answer-check.ts';
import { withCachedJsonSchema, withoutValidation } from './schema-cache.ts';
import { toolInput } from './tool-input.ts';
import { toolErrorText, type ToolDefinition } from './tool.ts';

export const SERVER_INFO = { name: SERVICE_NAME, title: SERVICE_NAME, version: SERVICE_VERSION };

/**
 * What holds for every tool, said once per session rather than in each
 * tool's schema: the units, how to read the wind fields, the rideable rule.
 */
const INSTRUCTIONS =
  'Tailwind and headwind on cycling segments and routes. Start with find_tailwind_segments (a place or ' +
  'coordinates), then get_segment for one id; for a whole route (GPX, GeoJSON or points) use get_route_wind. ' +
  'Units are in the field names (kmh, m, km, pct, deg, c, s); times are ISO 8601 UTC, with the time_zone ' +
  'that reads them (and in some answers a *_local form) beside them: tell riders the local time. Angles are ' +
  'degrees from north, and ' +
  'wind_direction_deg is where the wind blows FROM. Winds are at 10 m, as weather apps show them; a ' +
  `*_rider_height figure is that wind × ${WIND_HEIGHT_FACTOR.toFixed(3)}, what the rider feels at 1.5 m. ` +
  'A positive tailwind_kmh helps the rider, a negative one is a headwind. A best window is the run of ' +
  `rideable hours (${RIDEABLE_RULE}) around the strongest tailwind. Flags say what is marginal: pass them ` +
  `on (${FLAG_RULES}). A status "dark" means the tailwind comes only at night: include_darkness: true ` +
  'offers those hours to a rider with lights. ' +
  'Show the attribution with the data. ' +
  'When forecast.source is "demo" the weather is synthetic: tell the user it is not a real forecast.';

export interface ServerSetup {
  readonly tools: readonly ToolDefinition[];
  /** The data sources every request of the address shares. */
  readonly deps: McpDeps;
  /** Whether the address lists the Pro-only fields (the rider address) or not (the public one). */
  readonly audience: SchemaAudience;
  readonly limiter: CallAllowance;
}

/** A tool's output schema as the SDK gets it: validating its answers, unless this build trusts the tests to (`answer-check.ts`). */
const answerSchema = ANSWERS_CHECKED
  ? (schema: StandardSchemaWithJSON) => schema
  : (schema: StandardSchemaWithJSON) => withoutValidation(schema);

/** Where the request's facts ride in the SDK's `authInfo.extra`. */
const FACTS_KEY = 'wind-on-segment/request';

/**
 * The `authInfo` the endpoint hands the SDK with one request: the SDK passes
 * it, untouched, to the tool handler of that request only. `token` is empty:
 * the endpoint has verified the rider's token before, and no tool reads it.
 */
export function authInfoOf(facts: RequestFacts): AuthInfo {
  const rider = facts.caller.kind === 'rider' ? facts.caller : undefined;
  return {
    token: '',
    clientId: rider?.clientId ?? '',
    scopes: rider ? [...rider.scopes] : [],
    extra: { [FACTS_KEY]: facts },
  };
}

/** The facts of the request a handler serves; a server is never built to run without them. */
function factsOf(authInfo: AuthInfo | undefined): RequestFacts {
  const facts = authInfo?.extra?.[FACTS_KEY] as RequestFacts | undefined;
  if (!facts) throw new Error('An MCP request reached a tool without its request facts.');
  return facts;
}

function errorResult(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

/**
 * One server for one address, reused request after request
 * (`server-pool.ts`). Every tool is registered through here, so limits and
 * the turn of errors into `isError` results are decided in one place.
 * Unexpected failures are logged and answered without internals. A handler
 * reads who calls, the URLs and the limit's key from the request it serves
 * (the SDK's `authInfo`), never from the server, which outlives the request.
 */
export function buildServer({ tools, deps, audience, limiter }: ServerSetup): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: toolInput(tool.inputSchema, audience, prebuiltSchema(tool.name, 'input', audience)),
        outputSchema: answerSchema(
          withCachedJsonSchema(tool.outputSchema, audience, prebuiltSchema(tool.name, 'output', audience)),
        ),
        annotations: tool.annotations,
      },
      async (input: unknown, ctx) => {
        const { caller, urls, limitKey } = factsOf(ctx.http?.authInfo);
        try {
          // One call from the connection's allowance; a refusal is worded below, as every use case's error.
          await admitCall(limiter, limitKey);
          // The SDK has validated `input` against the schema (defaults applied) before calling us.
          const answer = await tool.run(input as Parameters<typeof tool.run>[0], { ...deps, caller, urls });
          return {
            content: [{ type: 'text' as const, text: answer.summary }],
            structuredContent: answer.data as Record<string, unknown>,
          };
        } catch (error) {
          const text = toolErrorText(error);
          if (text !== undefined) return errorResult(text);
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
