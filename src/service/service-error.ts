import type { ProblemCode } from '../core/problems.ts';
import { forecastOutage, type ForecastOutage } from '../data/forecast/forecast-outage.ts';

/**
 * The one error family the use cases throw: a code of the spec's problem
 * codes (`src/core/problems.ts`), a sentence that says what happened in
 * words fit for any reader, and the facts a surface may add (what the
 * upstream service did, when to ask again, names the caller may have meant).
 * Each surface turns it into its wire form in one place: REST a problem
 * document (`src/rest/data-problems.ts`), MCP an `isError` result
 * (`src/mcp/tool.ts`). Anything else a use case throws is a bug, answered
 * as an internal error.
 */
export type ServiceErrorCode = Extract<
  ProblemCode,
  | 'invalid_parameter'
  | 'place_not_found'
  | 'place_search_unavailable'
  | 'unknown_segment'
  | 'too_many_requests'
  | 'forecast_unreachable'
  | 'forecast_unavailable'
>;

export interface ServiceErrorFacts {
  /** What the upstream service did, in its own words (a failed place search or forecast). */
  readonly cause?: string;
  /** When asking again is worth it (Unix seconds), or null when waiting alone changes nothing. */
  readonly retryAt?: number | null;
  /** Seconds from now to `retryAt`, or null. */
  readonly retryAfterS?: number | null;
  /** Names the caller may have meant (`place_not_found`), best first. */
  readonly suggestions?: readonly string[];
  /** The id asked for (`unknown_segment`). */
  readonly id?: string;
}

export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  readonly facts: ServiceErrorFacts;

  constructor(code: ServiceErrorCode, message: string, facts: ServiceErrorFacts = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.facts = facts;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The error of a forecast outage (`forecast-outage.ts` sorts and words it): its sentence, the source's cause. */
export function outageError(outage: ForecastOutage, cause: string): ServiceError {
  return new ServiceError(
    outage.reach === 'unreachable' ? 'forecast_unreachable' : 'forecast_unavailable',
    outage.sentence,
    { cause, retryAt: outage.retryAt, retryAfterS: outage.retryAfterS },
  );
}

/**
 * The one translation of a failed forecast read into the family, for every
 * use case that reads the forecast: a forecast failure becomes
 * `forecast_unreachable` or `forecast_unavailable`; anything else is not an
 * outage (undefined), and the caller lets it through as the bug it is.
 */
export function forecastFailure(error: unknown, sourceId: string, nowMs: number): ServiceError | undefined {
  const outage = forecastOutage(error, sourceId, nowMs);
  return outage ? outageError(outage, messageOf(error)) : undefined;
}
