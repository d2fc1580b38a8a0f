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
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** The fragment of the docs page that explains a code, e.g. `error-not-found`. */
export function problemAnchor(code: ProblemCode): string {
  return `error-${code.replaceAll('_', '-')}`;
}

export interface ApiErrorInit {
  readonly detail: string;
  readonly hint: string;
  readonly parameter?: string;
}

/**
 * The one error class of the API. Anything that goes wrong for a reason the
 * caller can act on is thrown as an `ApiError`; the HTTP layer turns it into
 * problem+json in a single place, and treats every other throw as internal.
 */
export class ApiError extends Error {
  readonly code: ProblemCode;
  readonly hint: string;
  readonly parameter: string | undefined;

  constructor(code: ProblemCode, init: ApiErrorInit) {
    super(init.detail);
    this.name = 'ApiError';
    this.code = code;
    this.hint = init.hint;
    this.parameter = init.parameter;
  }

  get status(): number {
    return PROBLEM_CODES[this.code].status;
  }
}
