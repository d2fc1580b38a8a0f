/**
 * The problem codes of the API and their titles, as pure data: which code a
 * failure is, never how a wire carries it. The HTTP status of each code is
 * the HTTP layer's (`src/http/problem-json.ts`), so `src/core` holds no HTTP.
 * The four after `method_not_allowed` are answered by the Node listener's
 * edge (a request its HTTP parser refuses, or one whose Host or target makes
 * no URL), never by a route. The `type` URI of a problem is derived from the
 * code (`#error-<code-with-hyphens>`), so the docs anchors and the API can
 * never disagree.
 */
export const PROBLEM_CODES = {
  missing_parameter: { title: 'Missing Parameter' },
  invalid_parameter: { title: 'Invalid Parameter' },
  not_found: { title: 'Not Found' },
  method_not_allowed: { title: 'Method Not Allowed' },
  bad_request: { title: 'Bad Request' },
  request_timeout: { title: 'Request Timeout' },
  uri_too_long: { title: 'URI Too Long' },
  header_too_large: { title: 'Request Header Fields Too Large' },
  internal_error: { title: 'Internal Error' },
  place_not_found: { title: 'Place Not Found' },
  unknown_segment: { title: 'Unknown Segment' },
  too_many_requests: { title: 'Too Many Requests' },
  forecast_unavailable: { title: 'Forecast Unavailable' },
  forecast_unreachable: { title: 'Forecast Source Unreachable' },
  place_search_unavailable: { title: 'Place Search Unavailable' },
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
  unauthorized: { title: 'Unauthorized', hint: 'Sign in on /login, then try again.' },
  cross_site_request: {
    title: 'Cross-Site Request Refused',
    hint: 'Send the request from a page of this site: a POST must carry this site as its Origin.',
  },
  misdirected_request: {
    title: 'Misdirected Request',
    hint: 'Call the settings API under the host name of the site it belongs to.',
  },
  invalid_request: {
    title: 'Invalid Request',
    hint: 'Send the JSON body the endpoint documents; detail names what is wrong.',
  },
  unsupported_media_type: {
    title: 'Unsupported Media Type',
    hint: 'Send the body as JSON with Content-Type: application/json.',
  },
  payload_too_large: {
    title: 'Payload Too Large',
    hint: 'Send a smaller body; detail gives the limit.',
  },
  invalid_webhook_url: {
    title: 'Invalid Webhook URL',
    hint: 'Use a public https URL (no credentials, no private or reserved address), at most 2048 characters.',
  },
  invalid_route: {
    title: 'Invalid Route',
    hint: 'Export the segment again as GPX or GeoJSON with one track; route_error says what was wrong.',
  },
  allowance_reached: {
    title: 'Own-Segment Allowance Reached',
    hint: 'Remove an own segment first, or move to Pro for a larger allowance.',
  },
  watchlist_full: {
    title: 'Watchlist Full',
    hint: 'Remove a segment from the watchlist first.',
  },
  connection_not_found: {
    title: 'Connection Not Found',
    hint: 'Reload the settings page: the connection is already gone, or belongs to no assistant of yours.',
  },
  segment_not_found: {
    title: 'Segment Not Found',
    hint: 'Reload the settings page: the segment is already removed, or is not one of yours.',
  },
  account_not_found: {
    title: 'Account Not Found',
    hint: 'Sign up again: this rider account was deleted.',
  },
  payments_not_configured: {
    title: 'Payments Not Configured',
    hint: 'This deployment takes no payments; new accounts get the Pro trial.',
  },
  already_paid: {
    title: 'Already Paid',
    hint: 'Change or cancel the plan from Manage billing on the settings page.',
  },
  no_billing_account: {
    title: 'No Billing Account',
    hint: 'Pick a plan on the pricing page first.',
  },
  payment_provider_unavailable: {
    title: 'Payment Provider Unavailable',
    hint: 'Try again in a moment; nothing was charged.',
  },
  invalid_signature: {
    title: 'Invalid Signature',
    hint: 'Deliver the event as Stripe signed it, with its Stripe-Signature header, within five minutes.',
  },
  temporarily_unavailable: {
    title: 'Temporarily Unavailable',
    hint: 'Deliver the event again later (Stripe retries on its own).',
  },
  invalid_push_subscription: {
    title: 'Invalid Push Subscription',
    hint: 'Send the browser’s PushSubscription as it gives it (toJSON()): an https endpoint of a push service and its p256dh and auth keys.',
  },
  device_not_found: {
    title: 'Device Not Found',
    hint: 'Reload the settings page: the device was removed already, or is not one of yours.',
  },
  link_not_valid: {
    title: 'Link Not Valid',
    hint: 'Use the newest link: a calendar address stops working when it is renewed or turned off, an unsubscribe link when the account is deleted.',
  },
} as const;

export type AccountProblemCode = keyof typeof ACCOUNT_PROBLEM_CODES;

/** Every code any HTTP answer of ours can carry. */
export type AnyProblemCode = ProblemCode | AccountProblemCode;

/** The title of any code. */
export function problemTitle(code: AnyProblemCode): string {
  return code in PROBLEM_CODES
    ? PROBLEM_CODES[code as ProblemCode].title
    : ACCOUNT_PROBLEM_CODES[code as AccountProblemCode].title;
}

/** The hint an account code carries unless its answer gives a sharper one; the API's codes have none. */
export function catalogueHint(code: AnyProblemCode): string {
  return code in ACCOUNT_PROBLEM_CODES ? ACCOUNT_PROBLEM_CODES[code as AccountProblemCode].hint : '';
}

/** The fragment of the docs page that explains a code, e.g. `error-not-found`. */
export function problemAnchor(code: AnyProblemCode): string {
  return `error-${code.replaceAll('_', '-')}`;
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
 * `problemOf` (`src/http/problem-json.ts`), and treats every other throw as
 * internal. It carries a code, never a status: the status is the wire's.
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
}
