/**
 * One call from a caller's allowance, before any use case runs: the REST
 * data endpoints take one per request, the MCP tools one per tool call,
 * each from its own limiter (`src/store/shared-state/rate-limiter.ts`, in
 * this instance's memory or shared through Redis), which the composition
 * root hands over. A refusal is the family's `too_many_requests`, with the
 * seconds until a call is allowed again; each surface words it in its one
 * mapper, as it words every `ServiceError`. The surfaces ask here rather
 * than the limiter itself, so they reach the store only through a use case.
 */
import { ServiceError } from './service-error.ts';

/** What a limiter decides for one call. */
export interface AllowanceDecision {
  readonly allowed: boolean;
  /** Seconds until a call is allowed again (0 when allowed). */
  readonly retryAfterS: number;
}

/** A limiter keyed by caller (an address, or an OAuth grant): in memory, or shared, hence a decision or its promise. */
export interface CallAllowance {
  take(key: string): AllowanceDecision | Promise<AllowanceDecision>;
}

/** Takes one call from `key`'s allowance, or throws `too_many_requests` with `retryAfterS`. */
export async function admitCall(allowance: CallAllowance, key: string): Promise<void> {
  const decision = await allowance.take(key);
  if (decision.allowed) return;
  throw new ServiceError('too_many_requests', 'This caller has used up its allowance of calls for now.', {
    retryAfterS: decision.retryAfterS,
  });
}
