/**
 * The HTTP side of a problem: each code's status and the RFC 9457 document
 * (`application/problem+json`) every problem+json surface sends, the REST
 * API, the settings API, billing and the request edge alike. The codes and
 * their titles are pure data in `src/core/problems.ts`; the status a code
 * travels with is a fact of HTTP, so it lives here and nowhere else.
 */
import {
  ApiError,
  catalogueHint,
  problemAnchor,
  problemTitle,
  type AccountProblemCode,
  type AnyProblemCode,
  type ProblemCode,
} from '../core/problems.ts';
import { CACHE } from './cache-control.ts';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The status of each code of the REST API. */
export const PROBLEM_STATUS = {
  missing_parameter: 400,
  invalid_parameter: 400,
  not_found: 404,
  method_not_allowed: 405,
  bad_request: 400,
  request_timeout: 408,
  uri_too_long: 414,
  header_too_large: 431,
  internal_error: 500,
  place_not_found: 404,
  unknown_segment: 404,
  too_many_requests: 429,
  forecast_unavailable: 503,
  forecast_unreachable: 503,
  place_search_unavailable: 503,
} as const satisfies Record<ProblemCode, number>;

/** The status of each code of the settings API and billing. */
export const ACCOUNT_PROBLEM_STATUS = {
  unauthorized: 401,
  cross_site_request: 403,
  misdirected_request: 421,
  invalid_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_webhook_url: 400,
  invalid_route: 400,
  allowance_reached: 409,
  watchlist_full: 409,
  connection_not_found: 404,
  segment_not_found: 404,
  account_not_found: 404,
  payments_not_configured: 404,
  already_paid: 409,
  no_billing_account: 404,
  payment_provider_unavailable: 502,
  invalid_signature: 400,
  temporarily_unavailable: 503,
  invalid_push_subscription: 400,
  device_not_found: 404,
  link_not_valid: 404,
} as const satisfies Record<AccountProblemCode, number>;

/** The HTTP status of any code. */
export function problemStatus(code: AnyProblemCode): number {
  return code in PROBLEM_STATUS
    ? PROBLEM_STATUS[code as ProblemCode]
    : ACCOUNT_PROBLEM_STATUS[code as AccountProblemCode];
}

/** The reason phrase of a status that some code carries (for a raw HTTP/1.1 status line); '' for any other. */
export function reasonPhrase(status: number): string {
  const code = (Object.keys(PROBLEM_STATUS) as ProblemCode[]).find(
    (entry) => PROBLEM_STATUS[entry] === status,
  );
  return code === undefined ? '' : problemTitle(code);
}

/** An RFC 9457 problem document, extended as the API extends it (`code`, `hint`, and fields per code). */
export interface ProblemDocument {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly code: AnyProblemCode;
  readonly hint: string;
  readonly [extension: string]: unknown;
}

export interface ProblemInit {
  /** What went wrong with this request. */
  readonly detail: string;
  /** How to resolve it; an account code falls back to its catalogue hint. */
  readonly hint?: string;
  /** The request path. */
  readonly instance?: string;
  /** `{docs_url}`: the docs page holding the `#error-…` anchors. */
  readonly docsUrl: string;
  /** Fields of this code beyond RFC 9457's (e.g. `parameter`); never overrides the standard ones. */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/**
 * The one renderer of a problem document, for every HTTP surface (the REST
 * API, the account JSON, billing, the edge): the `type` URI, title and
 * status follow from the code, so no surface can answer a code with another
 * status or a link to an anchor the docs lack.
 */
export function problemDocument(code: AnyProblemCode, init: ProblemInit): ProblemDocument {
  const standard = {
    type: `${init.docsUrl}#${problemAnchor(code)}`,
    title: problemTitle(code),
    status: problemStatus(code),
    detail: init.detail,
    ...(init.instance === undefined ? {} : { instance: init.instance }),
    code,
    hint: init.hint ?? catalogueHint(code),
  };
  // The standard members first, then the extensions; spreading `standard`
  // again keeps that order while no extension can replace a standard value.
  return { ...standard, ...init.extensions, ...standard };
}

/** The problem document of an error at a path: the one place an `ApiError` becomes RFC 9457. */
export function problemOf(error: ApiError, instance: string, docsUrl: string): ProblemDocument {
  const extensions =
    error.parameter === undefined ? error.extensions : { ...error.extensions, parameter: error.parameter };
  return problemDocument(error.code, {
    detail: error.message,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
    instance,
    docsUrl,
    ...(extensions === undefined ? {} : { extensions }),
  });
}

/** A problem answer as plain parts, for whichever response object the caller writes. */
export interface ProblemParts {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * A private problem answer (`no-store`, no CORS): the settings API's,
 * billing's and the request edge's, which all write an `ApiError` this way.
 * The REST API adds its public headers and cache rules (`problemReply`).
 */
export function problemParts(error: ApiError, instance: string, docsUrl: string): ProblemParts {
  const document = problemOf(error, instance, docsUrl);
  const headers: Record<string, string> = { 'content-type': PROBLEM_MEDIA_TYPE, 'cache-control': CACHE.none };
  if (error.retryAfterS !== undefined) headers['retry-after'] = String(error.retryAfterS);
  return { status: document.status, headers, body: JSON.stringify(document) };
}
