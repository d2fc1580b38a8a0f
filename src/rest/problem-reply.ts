import { ApiError, PROBLEM_CODES, problemAnchor } from '../core/problems.ts';
import { CACHE, jsonReply, type CachePolicy, type Reply } from './headers.ts';
import type { Problem } from './schemas/problem.ts';

/** The problem every unexpected failure becomes: no message, no stack, a retry hint. */
export function internalError(): ApiError {
  return new ApiError('internal_error', {
    detail: 'The server failed to answer this request.',
    hint: 'This is a fault on our side. Retry in a moment; if it persists, report it.',
  });
}

function cacheFor(status: number): CachePolicy {
  return status === 400 || status === 404 ? CACHE.clientError : CACHE.none;
}

/**
 * The single place where errors become RFC 9457 problem+json. An `ApiError`
 * keeps its code, detail and hint; anything else is logged here and answered
 * as `internal_error` without its message or stack.
 */
export function problemReply(error: unknown, instance: string, docsUrl: string): Reply {
  const known = error instanceof ApiError ? error : internalError();
  if (!(error instanceof ApiError)) console.error('[wind-on-segment] internal error', instance, error);
  const { status, title } = PROBLEM_CODES[known.code];
  const body: Problem = {
    type: `${docsUrl}#${problemAnchor(known.code)}`,
    title,
    status,
    detail: known.message,
    instance,
    code: known.code,
    hint: known.hint,
    ...(known.parameter === undefined ? {} : { parameter: known.parameter }),
  };
  return jsonReply(body, {
    status,
    cache: cacheFor(status),
    contentType: 'application/problem+json',
    allow: status === 405,
  });
}
