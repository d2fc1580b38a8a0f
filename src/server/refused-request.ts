import type { ApiError } from '../core/problems.ts';
import {
  connectRefused,
  headerTooLarge,
  malformedRequest,
  methodRefused,
  requestTimedOut,
  uriTooLong,
} from '../rest/edge-refusals.ts';

/** What Node's HTTP parser hands the `clientError` hook (documented fields only). */
export interface ParserError extends Error {
  readonly code?: string;
  /** The bytes being parsed when it failed; they may hold earlier pipelined requests too. */
  readonly rawPacket?: Buffer;
  /** Where in `rawPacket` the parser stopped. */
  readonly bytesParsed?: number;
  readonly reason?: string;
}

/** What could be read of a request the parser refused. */
export interface RefusedRequest {
  readonly method: string | undefined;
  /** The request path for the problem's `instance` (`/` when none could be read). */
  readonly path: string;
  readonly error: ApiError;
}

/** Longest `instance` echoed back: a 64 KB path is refused, not repeated. */
const MAX_INSTANCE = 256;

function pathOf(target: string | undefined): string {
  if (!target) return '/';
  const path = target.startsWith('/') ? target : (URL.parse(target)?.pathname ?? '/');
  return (path.split('?', 1)[0] ?? '/').slice(0, MAX_INSTANCE);
}

/**
 * The request line of the request that failed, as far as this packet
 * shows it. Earlier pipelined requests in the packet end at a blank line,
 * so the failing request starts after the last blank line before the point
 * where the parser stopped; an overflow stops at the end of the element
 * that overflowed, so a request line that had not ended there was the
 * target (414), one that had was the headers (431). Heuristic by nature: a
 * head that spans packets shows no request line, and is answered 431, the
 * general answer. It picks the method, the path and 414 or 431, never
 * whether the request is refused.
 */
function failedHead(error: ParserError): { line: string; lineEnded: boolean | undefined } {
  const packet = error.rawPacket;
  if (!packet) return { line: '', lineEnded: undefined };
  const text = packet.toString('latin1');
  const at = Math.min(error.bytesParsed ?? 0, text.length);
  const blank = at > 0 ? text.lastIndexOf('\r\n\r\n', at - 1) : -1;
  const start = blank === -1 ? 0 : blank + 4;
  const end = text.indexOf('\n', start);
  const line = text.slice(start, end === -1 ? undefined : end).trimEnd();
  // A packet that is all one element of a long head (no request line in it) tells nothing.
  if (!/^[!-~]+ /.test(line)) return { line: '', lineEnded: undefined };
  return { line, lineEnded: end !== -1 && end < at };
}

/**
 * The problem for a request Node's parser refused, by the parser's error
 * code: an unknown or lowercase method token is a 405 like any other method
 * the API does not serve; a head over the parser's limit is a 414 when the
 * request line itself never ended, else a 431; a timeout is a 408; every
 * other syntax error is a 400 that names what the parser said.
 */
export function readRefusal(error: ParserError, maxHeaderBytes: number): RefusedRequest {
  const { line, lineEnded } = failedHead(error);
  const match = /^([!-~]+) +(\S+)/.exec(line);
  const method = match?.[1];
  const path = pathOf(match?.[2]);
  switch (error.code) {
    case 'HPE_INVALID_METHOD':
      return { method, path, error: methodRefused(method) };
    case 'HPE_HEADER_OVERFLOW':
      return {
        method,
        path,
        error: lineEnded === false ? uriTooLong(maxHeaderBytes) : headerTooLarge(maxHeaderBytes),
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { method, path, error: requestTimedOut() };
    default:
      return { method, path, error: malformedRequest(error.reason ?? error.code ?? 'unreadable') };
  }
}

/** The 405 for a CONNECT: this server is not a proxy, whatever the target. */
export function connectRefusal(target: string | undefined): RefusedRequest {
  return { method: 'CONNECT', path: target?.startsWith('/') ? pathOf(target) : '/', error: connectRefused() };
}
