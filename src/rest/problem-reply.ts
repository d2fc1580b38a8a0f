import { ApiError, type AnyProblemCode } from '../core/problems.ts';
import { PROBLEM_MEDIA_TYPE, problemOf, reasonPhrase } from '../http/problem-json.ts';
import { CACHE, jsonReply, type CachePolicy, type Reply } from './headers.ts';
import type { Problem } from './schemas/problem.ts';

/** The problem every unexpected failure becomes: no message, no stack, a retry hint. */
export function internalError(): ApiError {
  return new ApiError('internal_error', {
    detail: 'The server failed to answer this request.',
    hint: 'This is a fault on our side. Retry in a moment; if it persists, report it.',
  });
}

/**
 * Only answers that follow from the URL alone may be cached: a bad or
 * missing parameter and an unknown path. Everything else (the edge's
 * refusals depend on the Host header, the connection or its timing) is
 * `no-store`, so a cache never keeps it under a URL it does not belong to.
 */
const CACHEABLE: ReadonlySet<AnyProblemCode> = new Set([
  'missing_parameter',
  'invalid_parameter',
  'not_found',
]);

function cacheFor(code: AnyProblemCode): CachePolicy {
  return CACHEABLE.has(code) ? CACHE.clientError : CACHE.none;
}

/**
 * The single place where the REST API's errors become RFC 9457 problem+json, with its public
 * CORS and cache headers. An `ApiError`
 * keeps its code, detail and hint; anything else is logged here and answered
 * as `internal_error` without its message or stack.
 */
export function problemReply(error: unknown, instance: string, docsUrl: string): Reply {
  const known = error instanceof ApiError ? error : internalError();
  if (!(error instanceof ApiError)) console.error('[wind-on-segment] internal error', instance, error);
  const body = problemOf(known, instance, docsUrl) as Problem;
  const { status } = body;
  const reply = jsonReply(body, {
    status,
    cache: cacheFor(known.code),
    contentType: PROBLEM_MEDIA_TYPE,
    allow: status === 405,
  });
  // 429 and 503 say when to come back (RFC 9110 §10.2.3); the body's hint says it in words.
  if (known.retryAfterS !== undefined) reply.headers['retry-after'] = String(known.retryAfterS);
  return reply;
}

/**
 * A reply as the bytes of an HTTP/1.1 response, for the places where no
 * response object exists: a request Node's parser refused, or a CONNECT.
 * The connection is always closed after it (the parser cannot resync on a
 * stream it could not read). Header values come from `jsonReply`, never from
 * the request, so nothing here can split the response.
 */
export function rawHttpResponse(reply: Reply): string {
  const lines = [`HTTP/1.1 ${reply.status} ${reasonPhrase(reply.status)}`];
  for (const [name, value] of Object.entries(reply.headers)) lines.push(`${name}: ${value}`);
  lines.push('connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${reply.body ?? ''}`;
}
