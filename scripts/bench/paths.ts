/**
 * Where things are, resolved from this file rather than the working directory,
 * so `npm run bench` and a direct `node scripts/bench/index.ts` behave alike.
 */
import { fileURLToPath } from 'node:url';

/** The repository root (where `package.json` is). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The bare `node:http` server the service is compared with. */
export const BASELINE_SCRIPT = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
