/**
 * The errors the request edge sends before a part sees the request (a body
 * over the path's limit, a header the fetch API refuses, the rider side not
 * opening), in the error style the path table gives the path: a problem
 * document where the part answers problems, the OAuth shape on the sign-in
 * paths, a JSON-RPC error on the MCP addresses. One function, so the style
 * is chosen in one place (the table) and each style has one renderer
 * (`problemParts`, `oauthErrorJson`, `jsonRpcErrorJson`).
 */
import { oauthErrorJson } from '../auth/oauth-error.ts';
import { ApiError, type AnyProblemCode } from '../core/problems.ts';
import { problemParts, problemStatus } from '../http/problem-json.ts';
import { jsonRpcCodeFor, jsonRpcErrorJson } from '../mcp/json-rpc-error.ts';
import { pathFacts } from './paths.ts';
import { CACHE } from '../http/cache-control.ts';

export interface EdgeFailure {
  /** The problem code; its status is the answer's. */
  readonly code: AnyProblemCode;
  readonly detail: string;
  readonly hint?: string;
  /** The OAuth error code, when it is not the problem code (`invalid_request` for `bad_request`). */
  readonly oauthError?: string;
}

export interface EdgeReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The failure as the part serving `path` would have said it; `docsUrl` is `{docs_url}` of a problem's `type`. */
export function edgeError(path: string, failure: EdgeFailure, docsUrl: string): EdgeReply {
  const status = problemStatus(failure.code);
  const { errors } = pathFacts(path);
  const json = (body: string) => ({
    status,
    headers: { 'content-type': 'application/json', 'cache-control': CACHE.none },
    body,
  });
  if (errors === 'oauth') {
    const description = failure.hint ? `${failure.detail} ${failure.hint}` : failure.detail;
    return json(oauthErrorJson({ status, error: failure.oauthError ?? failure.code, description }));
  }
  if (errors === 'json-rpc') {
    return json(jsonRpcErrorJson(jsonRpcCodeFor(status), failure.detail));
  }
  const { code, detail, hint } = failure;
  return problemParts(new ApiError(code, { detail, ...(hint ? { hint } : {}) }), path, docsUrl);
}

/** The same, as a web `Response` (for HEAD, without its body). */
export function edgeErrorResponse(
  request: Request,
  failure: EdgeFailure,
  extraHeaders: Readonly<Record<string, string>> = {},
): Response {
  const url = new URL(request.url);
  const { status, headers, body } = edgeError(url.pathname, failure, `${url.origin}/docs`);
  return new Response(request.method === 'HEAD' ? null : body, {
    status,
    headers: { ...headers, ...extraHeaders },
  });
}
