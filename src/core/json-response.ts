/**
 * The JSON answers of the account API and billing: handlers return a plain
 * success or an {@link ApiError} (the error type of every problem+json
 * surface; one a handler throws is answered the same), and
 * {@link answerResponse} turns it into the web `Response`, so the settings
 * API, checkout, the portal and the Stripe webhook share one success helper
 * and one problem renderer. It sits in core, the layer every surface shares,
 * because a `Response` is a plain value of the platform (no I/O happens
 * here). Every answer is private to the rider (or to Stripe), hence
 * `no-store`, and carries none of the REST API's public CORS headers.
 */
import { ApiError, problemOf, type AnyProblemCode } from './problems.ts';

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

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
    return Response.json(answer.body, { status: answer.status, headers: { 'Cache-Control': 'no-store' } });
  }
  const document = problemOf(answer, target.instance, target.docsUrl);
  return new Response(JSON.stringify(document), {
    status: document.status,
    headers: { 'Content-Type': PROBLEM_MEDIA_TYPE, 'Cache-Control': 'no-store' },
  });
}
