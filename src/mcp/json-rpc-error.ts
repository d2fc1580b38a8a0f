/**
 * The one renderer of a JSON-RPC error that the MCP addresses send outside
 * a call (a body too large or unreadable, a request the edge refuses, the
 * endpoint itself failing): a response object with `id: null`, as JSON-RPC
 * 2.0 §5 prescribes when the request's id could not be read, its members in
 * the order the MCP SDK writes its own errors, so every JSON-RPC error of an
 * MCP address has one form. A tool's own failure is not one of these: it is
 * a tool result with `isError` (`ToolError`, rendered in `build-server.ts`).
 */

/** JSON-RPC's codes that these answers use (`serverError` is the SDK's for a body over the bound). */
export const JSON_RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  internalError: -32603,
  serverError: -32000,
} as const;

/**
 * The code of an error answered with HTTP `status`: a body over the bound is
 * the SDK's `serverError`, as it answers one itself; another refusal is an
 * invalid request; a failure of ours an internal error.
 */
export function jsonRpcCodeFor(status: number): number {
  if (status === 413) return JSON_RPC_CODES.serverError;
  return status >= 500 ? JSON_RPC_CODES.internalError : JSON_RPC_CODES.invalidRequest;
}

export function jsonRpcErrorJson(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}
