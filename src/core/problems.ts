/**
 * The problem codes of the API, their HTTP status and title. The four after
 * `method_not_allowed` are answered by the Node listener's edge (a request
 * its HTTP parser refuses, or one whose Host or target makes no URL), never
 * by a route. The `type` URI of
 * a problem is derived from the code (`#error-<code-with-hyphens>`), so the
 * docs anchors and the API can never disagree.
 */
export const PROBLEM_CODES = {
  missing_parameter: { status: 400, title: 'Missing Parameter' },
  invalid_parameter: { status: 400, title: 'Invalid Parameter' },
  not_found: { status: 404, title: 'Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  bad_request: { status: 400, title: 'Bad Request' },
  request_timeout: { status: 408, title: 'Request Timeout' },
  uri_too_long: { status: 414, title: 'URI Too Long' },
  header_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  internal_error: { status: 500, title: 'Internal Error' },
  place_not_found: { status: 404, title: 'Place Not Found' },
  unknown_segment: { status: 404, title: 'Unknown Segment' },
  too_many_requests: { status: 429, title: 'Too Many Requests' },
  forecast_unavailable: { status: 503, title: 'Forecast Unavailable' },
  forecast_unreachable: { status: 503, title: 'Forecast Source Unreachable' },
  place_search_unavailable: { status: 503, title: 'Place Search Unavailable' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/**
 * The codes of the rider's account JSON (the settings API) and of billing
 * (checkout, portal, the Stripe webhook), with the hint each answer carries
 * unless the answer gives a sharper one. An unknown path or method there is
 * the API's own `not_found` / `method_not_allowed`, so those two are not
 * repeated: one code, one docs anchor. The docs page documents every code
 * (`src/components/docs/account-errors.ts` is typed over this table, so a
 * new code without its docs entry fails the type check).
 */
export const ACCOUNT_PROBLEM_CODES = {
  unauthorized: { status: 401, title: 'Unauthorized', hint: 'Sign in on /login, then try again.' },
  cross_site_request: {
    status: 403,
    title: 'Cross-Site Request Refused',
    hint: 'Send the request from a page of this site: a POST must carry this site as its Origin.',
  },
  misdirected_request: {
    status: 421,
    title: 'Misdirected Request',
    hint: 'Call the settings API under the host name of the site it belongs to.',
  },
  invalid_request: {
    status: 400,
    title: 'Invalid Request',
    hint: 'Send the JSON body the endpoint documents; detail names what is wrong.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported Media Type',
    hint: 'Send the body as JSON with Content-Type: application/json.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload Too Large',
    hint: 'Send a smaller body; detail gives the limit.',
  },
  invalid_webhook_url: {
    status: 400,
    title: 'Invalid Webhook URL',
    hint: 'Use a public https URL (no credentials, no private or reserved address), at most 2048 characters.',
  },
  invalid_route: {
    status: 400,
    title: 'Invalid Route',
    hint: 'Export the segment again as GPX or GeoJSON with one track; route_error says what was wrong.',
  },
  allowance_reached: {
    status: 409,
    title: 'Own-Segment Allowance Reached',
    hint: 'Remove an own segment first, or move to Pro for a larger allowance.',
  },
  watchlist_full: {
    status: 409,
    title: 'Watchlist Full',
    hint: 'Remove a segment from the watchlist first.',
  },
  connection_not_found: {
    status: 404,
    title: 'Connection Not Found',
    hint: 'Reload the settings page: the connection is already gone, or belongs to no assistant of yours.',
  },
  segment_not_found: {
    status: 404,
    title: 'Segment Not Found',
    hint: 'Reload the settings page: the segment is already removed, or is not one of yours.',
  },
  account_not_found: {
    status: 404,
    title: 'Account Not Found',
    hint: 'Sign up again: this rider account was deleted.',
  },
  payments_not_configured: {
    status: 404,
    title: 'Payments Not Configured',
    hint: 'This deployment takes no payments; new accounts get the Pro trial.',
  },
  already_paid: {
    status: 409,
    title: 'Already Paid',
    hint: 'Change or cancel the plan from Manage billing on the settings page.',
  },
  no_billing_account: {
    status: 404,
    title: 'No Billing Account',
    hint: 'Pick a plan on the pricing page first.',
  },
  payment_provider_unavailable: {
    status: 502,
    title: 'Payment Provider Unavailable',
    hint: 'Try again in a moment; nothing was charged.',
  },
  invalid_signature: {
    status: 400,
    title: 'Invalid Signature',
    hint: 'Deliver the event as Stripe signed it, with its Stripe-Signature header, within five minutes.',
  },
  temporarily_unavailable: {
    status: 503,
    title: 'Temporarily Unavailable',
    hint: 'Deliver the event again later (Stripe retries on its own).',
  },
  invalid_push_subscription: {
    status: 400,
    title: 'Invalid Push Subscription',
    hint: 'Send the browser’s PushSubscription as it gives it (toJSON()): an https endpoint of a push service and its p256dh and auth keys.',
  },
  device_not_found: {
    status: 404,
    title: 'Device Not Found',
    hint: 'Reload the settings page: the device was removed already, or is not one of yours.',
  },
  link_not_valid: {
    status: 404,
    title: 'Link Not Valid',
    hint: 'Use the newest link: a calendar address stops working when it is renewed or turned off, an unsubscribe link when the account is deleted.',
  },
} as const;

export type AccountProblemCode = keyof typeof ACCOUNT_PROBLEM_CODES;

/** Every code any HTTP answer of ours can carry. */
export type AnyProblemCode = ProblemCode | AccountProblemCode;

/** The status and title of any code. */
export function problemEntry(code: AnyProblemCode): { readonly status: number; readonly title: string } {
  return code in PROBLEM_CODES
    ? PROBLEM_CODES[code as ProblemCode]
    : ACCOUNT_PROBLEM_CODES[code as AccountProblemCode];
}

/** The fragment of the docs page that explains a code, e.g. `error-not-found`. */
export function problemAnchor(code: AnyProblemCode): string {
  return `error-${code.replaceAll('_', '-')}`;
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
 * API, the account JSON, billing): the `type` URI, title and status follow
 * from the code, so no surface can answer a code with another status or a
 * link to an anchor the docs lack.
 */
export function problemDocument(code: AnyProblemCode, init: ProblemInit): ProblemDocument {
  const { status, title } = problemEntry(code);
  const hint =
    init.hint ??
    (code in ACCOUNT_PROBLEM_CODES ? ACCOUNT_PROBLEM_CODES[code as AccountProblemCode].hint : '');
  const standard = {
    type: `${init.docsUrl}#${problemAnchor(code)}`,
    title,
    status,
    detail: init.detail,
    ...(init.instance === undefined ? {} : { instance: init.instance }),
    code,
    hint,
  };
  // The standard members first, then the extensions; spreading `standard`
  // again keeps that order while no extension can replace a standard value.
  return { ...standard, ...init.extensions, ...standard };
}

export interface ApiErrorInit {
  readonly detail: string;
  /** How to resolve it; an account code falls back to its catalogue hint. */
  readonly hint?: string;
  readonly parameter?: string;
  /** Seconds the client should wait before asking again (sent as `Retry-After`). */
  readonly retryAfterS?: number;
  /** The code's fields beyond RFC 9457's (e.g. `route_error`), never overriding the standard ones. */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/**
 * The one error type of every problem+json surface: the REST API, the
 * settings API and billing. Anything that goes wrong for a reason the caller
 * can act on is an `ApiError` (thrown, or returned where a settings handler
 * composes answers); each surface renders it in one place (`problemReply`
 * for REST, `answerResponse` for the settings API and billing) through
 * {@link problemOf}, and treats every other throw as internal.
 */
export class ApiError extends Error {
  readonly code: AnyProblemCode;
  readonly hint: string | undefined;
  readonly parameter: string | undefined;
  readonly retryAfterS: number | undefined;
  readonly extensions: Readonly<Record<string, unknown>> | undefined;

  constructor(code: AnyProblemCode, init: ApiErrorInit) {
    super(init.detail);
    this.name = 'ApiError';
    this.code = code;
    this.hint = init.hint;
    this.parameter = init.parameter;
    this.retryAfterS = init.retryAfterS;
    this.extensions = init.extensions;
  }

  get status(): number {
    return problemEntry(this.code).status;
  }
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
