/**
 * The JSON answers of the account API and billing: handlers return a plain
 * {@link JsonAnswer} (a success or a {@link Refusal} naming a problem code),
 * and {@link answerResponse} turns it into the web `Response`, so the
 * settings API, checkout, the portal and the Stripe webhook share one
 * success helper and one problem renderer. It sits in core, the layer every
 * surface shares, because a `Response` is a plain value of the platform (no
 * I/O happens here). Every answer is private to the rider (or to Stripe),
 * hence `no-store`.
 */
import { problemDocument, type AnyProblemCode, type ProblemInit } from './problems.ts';

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** A success: status and JSON body. */
interface Success {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A refusal: the problem code, what went wrong this time, and the code's extra fields. */
export interface Refusal {
  readonly refused: AnyProblemCode;
  readonly detail: string;
  readonly hint?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export type JsonAnswer = Success | Refusal;

/** Where an answer goes: the request path (`instance`) and `{docs_url}`. */
export interface AnswerTarget {
  readonly instance: string;
  readonly docsUrl: string;
}

export function refusal(
  code: AnyProblemCode,
  detail: string,
  extensions?: Readonly<Record<string, unknown>>,
): Refusal {
  return { refused: code, detail, ...(extensions ? { extensions } : {}) };
}

export function isRefusal<T extends object>(answer: T | Refusal): answer is Refusal {
  return 'refused' in answer;
}

/** A JSON success answer. */
function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

/** A problem document (RFC 9457) for `code`, rendered by the one renderer. */
function problemResponse(
  code: AnyProblemCode,
  init: ProblemInit,
  headers: Record<string, string> = {},
): Response {
  const document = problemDocument(code, init);
  return new Response(JSON.stringify(document), {
    status: document.status,
    headers: { 'Content-Type': PROBLEM_MEDIA_TYPE, 'Cache-Control': 'no-store', ...headers },
  });
}

/** Any answer as its `Response`. */
export function answerResponse(answer: JsonAnswer, target: AnswerTarget): Response {
  if (!isRefusal(answer)) return jsonResponse(answer.status, answer.body);
  return problemResponse(answer.refused, {
    ...target,
    detail: answer.detail,
    ...(answer.hint === undefined ? {} : { hint: answer.hint }),
    ...(answer.extensions === undefined ? {} : { extensions: answer.extensions }),
  });
}
