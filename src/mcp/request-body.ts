import { isJsonContentType } from '@modelcontextprotocol/server';
import { bodyText, declaredLength, readBoundedBody, tooLargeDetail } from '../http/bounded-body.ts';
import { JSON_RPC_CODES, jsonRpcCodeFor, jsonRpcErrorJson } from './json-rpc-error.ts';

/**
 * An MCP request's body, read once by the endpoint: the scope check of the
 * rider address reads the tool name from it and the SDK gets it as its
 * `parsedBody`, so no one clones the request or parses the JSON again.
 *
 * - `message`: the JSON-RPC message (or batch), as the SDK would have parsed it;
 * - `text`: a body that is empty or not JSON, handed to the SDK as text so it
 *   answers it exactly as before (its parse error, or its 2025-era fallback);
 * - `too-large` and `unreadable`: answered by the endpoint as the SDK would;
 * - `unread`: not a POST, or a POST that is not JSON (the SDK's 415), which
 *   the SDK answers without the body.
 */
export type McpBody =
  | { readonly kind: 'message'; readonly message: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'unreadable' }
  | { readonly kind: 'unread' };

/**
 * Reads a POST body up to `maxBytes` with the project's one body reader,
 * which bounds it as the SDK does when it reads a body itself (a declared
 * length over the bound refused unread, a stream stopped as soon as it
 * passes); the SDK skips that bound for a body handed to it parsed.
 */
export async function readMcpBody(request: Request, maxBytes: number): Promise<McpBody> {
  if (request.method.toUpperCase() !== 'POST' || !isJsonContentType(request.headers.get('content-type')))
    return { kind: 'unread' };
  const read = await readBoundedBody(request.body, {
    max: maxBytes,
    declared: declaredLength(request.headers.get('content-length')),
  });
  if (read.kind === 'too-large') return { kind: 'too-large' };
  if (read.kind === 'unreadable') return { kind: 'unreadable' };
  const text = bodyText(read.bytes);
  if (text.length === 0) return { kind: 'text', text };
  try {
    return { kind: 'message', message: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'text', text };
  }
}

/** The tool a `tools/call` message names; undefined for any other message, a batch or no message. */
export function calledToolOf(body: McpBody): string | undefined {
  if (body.kind !== 'message' || typeof body.message !== 'object' || body.message === null) return undefined;
  const { method, params } = body.message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/**
 * The answers for a body the endpoint cannot take: the SDK's codes, and for a
 * body over the bound the sentence the Node listener says (`tooLargeDetail`),
 * so `npm start` and the Vercel function refuse it in the same words.
 */
export function refusedBody(body: McpBody, maxBytes: number): Response | undefined {
  const error = (status: number, code: number, message: string) =>
    new Response(jsonRpcErrorJson(code, message), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  if (body.kind === 'too-large') return error(413, jsonRpcCodeFor(413), tooLargeDetail(maxBytes));
  if (body.kind === 'unreadable')
    return error(400, JSON_RPC_CODES.parseError, 'Parse error: the request body could not be read');
  return undefined;
}
