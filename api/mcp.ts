import { mcpEndpointFromEnv } from '../src/mcp/from-env.ts';

const endpoint = mcpEndpointFromEnv(process.env);

/** The MCP server as one Vercel function; Vercel sets `x-real-ip` to the caller's address. */
export default {
  fetch: (request: Request) => endpoint(request, { address: request.headers.get('x-real-ip') ?? 'unknown' }),
};
