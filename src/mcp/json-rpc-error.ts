/**
 * The one renderer of a JSON-RPC error that the MCP addresses send outside
 * a call (a body too large, the endpoint itself failing): a response object
 * with `id: null`, as JSON-RPC 2.0 §5 prescribes when the request's id could
 * not be read. A tool's own failure is not one of these: it is a tool result
 * with `isError` (`ToolError`, rendered in `build-server.ts`).
 */

/** JSON-RPC's codes that these answers use. */
export const JSON_RPC_CODES = { invalidRequest: -32600, internalError: -32603 } as const;

export function jsonRpcErrorJson(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}
