import { mcpServiceFromEnv, vercelFetch } from '../src/mcp/mcp-service.ts';

/** The MCP server (public and rider addresses) and the sign-in paths as one Vercel function. */
export default { fetch: vercelFetch(mcpServiceFromEnv(process.env)) };
