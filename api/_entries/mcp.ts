import { mcpFunction } from '../../src/app/mcp-function.ts';

/** The MCP server (public and rider addresses) and the sign-in paths as one Vercel function. */
export default { fetch: mcpFunction() };
