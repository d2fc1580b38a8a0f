/**
 * The JSON answers of the account API and billing: handlers return a plain
 * success or an {@link ApiError} (the error type of every problem+json
 * surface; one a handler throws is answered the same), and
 * {@link answerResponse} turns it into the web `Response`, so the settings
 * API, checkout, the portal and the Stripe webhook share one success helper
 * and one problem renderer (`problemParts`). It sits in the HTTP layer, below
 * every surface, since building a `Response` is HTTP, which `src/core` does
 * not hold. Every answer is private to the rider (or to Stripe), hence
 * `no-store`, and carries none of the REST API's public CORS headers.
 */
import { ApiError, type AnyProblemCode } from '../core/problems.ts';
import { CACHE } from './cache-control.ts';
import { problemParts } from './problem-json.ts';

/** A success: status and JSON body. */
interface Success {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export type JsonAnswer = Success | ApiError;

/** Where an answer goes: the request path (`instance`) and `{docs_url}`. */
export interface AnswerTarget {
  readonly instance: string;
  readonly docsUrl: string;
}

/** An error of a settings or billing answer: the code, what went wrong this time, the code's extra fields. */
export function refusal(
  code: AnyProblemCode,
  detail: string,
  extensions?: Readonly<Record<string, unknown>>,
  hint?: string,
): ApiError {
  return new ApiError(code, {
    detail,
    ...(extensions ? { extensions } : {}),
    ...(hint === undefined ? {} : { hint }),
  });
}

export function isRefusal<T extends object>(answer: T | ApiError): answer is ApiError {
  return answer instanceof ApiError;
}

/** Any answer as its `Response`. */
export function answerResponse(answer: JsonAnswer, target: AnswerTarget): Response {
  if (!isRefusal(answer)) {
    return Response.json(answer.body, { status: answer.status, headers: { 'Cache-Control': CACHE.none } });
  }
  const { status, headers, body } = problemParts(answer, target.instance, target.docsUrl);
  return new Response(body, { status, headers });
}
