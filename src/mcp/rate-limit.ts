/**
 * The per-connection limit of the MCP endpoints, per key (client IP, or
 * OAuth grant on `/mcp/rider`): `burst` calls in a window of
 * `burst / perMinute` minutes. One algorithm whatever holds the counts
 * (`src/store/shared-state/rate-limiter.ts`): this instance's memory by
 * default, Redis when the composition root passes a shared limiter. Either
 * is a `CallAllowance`, which the tool call spends through `admitCall`.
 */
import type { CallAllowance } from '../service/call-allowance.ts';
import { createMemoryRateLimiter } from '../store/shared-state/rate-limiter.ts';

/** The limit in this instance's memory. */
export function createRateLimiter(options: {
  readonly perMinute: number;
  readonly burst: number;
}): CallAllowance {
  return createMemoryRateLimiter({ ...options, prefix: 'mcp-connection' });
}
