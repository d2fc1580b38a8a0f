import { getHeapStatistics } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * The young generation of the serving thread, in MB as V8 counts it (its
 * two semi-spaces and the new large-object space, three semi-spaces in all):
 * 48 gives 16 MB semi-spaces, 32 MB resident. V8 sizes the young generation
 * from the host's memory (two 64 MB semi-spaces on a 24 GB host) and grows
 * it to that size under any sustained load, since it grows once the bytes
 * surviving its scavenges add up to its size; an MCP call's objects die
 * young either way (decision 0030).
 */
export const YOUNG_GENERATION_MB = 48;

/**
 * The old generation's limit, in MB. Below about 2 GB V8 lets the old
 * generation grow to less than twice what is live before it collects; with
 * the ~4 GB limit it derives from a large host it lets it grow to four times
 * that. A busy server over 1,000,000 segments keeps about 100 MB live.
 */
export const OLD_GENERATION_MB = 1536;

/**
 * The heap limits the server thread runs with: the ones above, the old
 * generation never above what V8 would allow on this host (`hostLimitMb`,
 * the main thread's own heap limit), so a small host or container keeps the
 * smaller limit V8 derives from it. `--max-old-space-size` on the command
 * line still wins over these (Node applies it to every thread).
 */
export function serverHeapLimits(
  hostLimitMb: number = getHeapStatistics().heap_size_limit / 1_048_576,
): ResourceLimits {
  return {
    maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
    maxOldGenerationSizeMb: Math.max(1, Math.min(OLD_GENERATION_MB, Math.floor(hostLimitMb))),
  };
}
