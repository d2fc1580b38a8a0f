/**
 * The problems the Node listener's edge answers before any endpoint runs: a
 * request its HTTP parser refused, a CONNECT, a Host or target that names no
 * URL, a head over the limits. Built here, beside the other problems, so the
 * listener and the API guide's error reference use the same words.
 */
import { ApiError } from '../core/problems.ts';
import { ALLOWED_METHODS } from './headers.ts';

const ALLOW = ALLOWED_METHODS.join(', ');

/**
 * The longest request target the server takes (414 beyond). RFC 9112 §3
 * asks servers to take at least 8,000 octets; the API's longest useful URL
 * is a few hundred bytes.
 */
export const MAX_TARGET_BYTES = 8 * 1024;

/** The most bytes of request line and header fields together (431 beyond), as Node's own default. */
export const MAX_HEAD_BYTES = 16 * 1024;

/** A method the API does not serve, including tokens Node's parser does not know (`get`, `BREW`). */
export function methodRefused(method: string | undefined): ApiError {
  const shown = method ? ` ${JSON.stringify(method.slice(0, 32))}` : '';
  return new ApiError('method_not_allowed', {
    detail: `The method${shown} is not supported: the API is read-only (methods are case-sensitive).`,
    hint: `Use ${ALLOW}.`,
  });
}

export function connectRefused(): ApiError {
  return new ApiError('method_not_allowed', {
    detail: 'CONNECT is not supported: this server is not a proxy, and the API is read-only.',
    hint: `Use ${ALLOW}.`,
  });
}

export function uriTooLong(limitBytes: number): ApiError {
  return new ApiError('uri_too_long', {
    detail: `The request target is longer than the ${limitBytes / 1024} KB the server reads.`,
    hint: 'Shorten the URL: every API query fits in a few hundred bytes.',
  });
}

export function headerTooLarge(limitBytes: number): ApiError {
  return new ApiError('header_too_large', {
    detail: `The request line and headers together exceed ${limitBytes / 1024} KB.`,
    hint: 'Send fewer or shorter headers (large cookies are the usual cause).',
  });
}

export function requestTimedOut(): ApiError {
  return new ApiError('request_timeout', {
    detail: 'The request was not received completely in time.',
    hint: 'Send the whole request at once, then wait for the answer.',
  });
}

/** A request the parser could not read, with the parser's own reason. */
export function malformedRequest(reason: string): ApiError {
  return new ApiError('bad_request', {
    detail: `The request is not valid HTTP/1.1 (${reason}).`,
    hint: 'Send a well-formed request: a method, an origin-form target, HTTP/1.1, then valid header lines.',
  });
}

export type HostFault = 'missing' | 'empty' | 'invalid' | 'repeated';

const HOST_DETAIL: Readonly<Record<HostFault, string>> = {
  missing: 'An HTTP/1.1 request needs a Host header.',
  empty: 'The Host header is empty.',
  invalid: 'The Host header is not a valid host name and port.',
  repeated: 'The request has more than one Host header.',
};

export function badHost(fault: HostFault): ApiError {
  return new ApiError('bad_request', {
    detail: HOST_DETAIL[fault],
    hint: 'Send one Host header: <name or address>[:port] of this server, e.g. Host: localhost:3000.',
  });
}

export function badTarget(): ApiError {
  return new ApiError('bad_request', {
    detail: 'The request target is neither a path nor an http(s) URL with a valid host and port.',
    hint: 'Send an origin-form request such as GET /v1/tailwind with a Host header.',
  });
}
