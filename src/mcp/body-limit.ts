/**
 * The largest JSON-RPC message `/mcp` and `/mcp/rider` accept. A tool call is
 * a few hundred bytes; 64 KB leaves room for long place names and clients
 * that send their whole capability list. Apart from the endpoint so the path
 * table (`src/app/paths.ts`) and the docs read it without the MCP SDK.
 */
export const MCP_MAX_BODY_BYTES = 64 * 1024;
