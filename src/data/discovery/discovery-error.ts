/**
 * Why a discovery step failed, in the words a rider reads: every upstream
 * fault (a busy Overpass, a time-out, an answer over the size cap, malformed
 * JSON, an elevation refusal or a short answer) becomes one of these, and the
 * pipeline stores nothing when one is thrown.
 */
export type DiscoveryFailure =
  /** 429, or 503/504 from a busy public instance: try again after a backoff. */
  | 'busy'
  /** No answer in time (ours or the upstream's own `[timeout:N]`). */
  | 'timeout'
  /** The answer passed the size cap (`[maxsize:N]` or ours). */
  | 'too_large'
  /** The answer was not the documented wire format (bad JSON, missing fields, a short array). */
  | 'malformed'
  /** The upstream refused the request itself (a 400 with a reason). */
  | 'refused'
  /** The network or the host could not be reached. */
  | 'unreachable';

export class DiscoveryError extends Error {
  readonly failure: DiscoveryFailure;
  /** How long the upstream asked us to wait (its `Retry-After`), seconds; the next try waits at least this. */
  readonly retryAfterS: number | undefined;

  /** `message` is one plain sentence naming the source and what happened, e.g. "Overpass is busy (HTTP 429)." */
  constructor(
    failure: DiscoveryFailure,
    message: string,
    options?: ErrorOptions & { readonly retryAfterS?: number | undefined },
  ) {
    super(message, options);
    this.name = 'DiscoveryError';
    this.failure = failure;
    this.retryAfterS = options?.retryAfterS;
  }
}
