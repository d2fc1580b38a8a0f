import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * V8's compile cache for every Node process of the run (Vitest's workers and each `npm start`, CLI
 * and build the tests start inherit it): a process loading a module an earlier one compiled reads
 * the code instead of compiling it again. 18 CLI runs took 5.7 s of CPU with it and 8.3 s without.
 * Kept beside the installed packages, never committed; Node checks each entry against its source.
 */
process.env['NODE_COMPILE_CACHE'] ??= fileURLToPath(
  new URL('node_modules/.cache/wind-on-segment/compile-cache', import.meta.url),
);

/**
 * A test's lane is its folder, never a list of names kept by hand, so a new file lands in the right
 * lane by where it is written (CONTRIBUTING.md, "Tests"):
 *
 * - `tests/e2e/`: Chromium against the site that `npm start` serves;
 * - `tests/integration/npm-start/`: the other files talking to that same shared `npm start`;
 * - `tests/integration/<area>/`: anything else that starts a process (its own `npm start`,
 *   `npm run dev`, Chromium, a CLI), needs PostgreSQL or Redis, or waits on real time;
 * - `tests/deploy/`: the built Vercel functions;
 * - `tests/fresh-clone/`: a fresh clone installed and started as the README says, run once per CI
 *   run by `.ci/run` (`npm run test:fresh-clone`), never by `npm test`: its install alone takes minutes;
 * - every other folder: in-process, the unit lane (`npm run test:unit`).
 */
const SHARED_NPM_START = ['tests/e2e/**/*.test.ts', 'tests/integration/npm-start/**/*.test.ts'];
const OWN_PROCESS = ['tests/integration/**/*.test.ts', 'tests/deploy/**/*.test.ts'];
const FRESH_CLONE = ['tests/fresh-clone/**/*.test.ts'];

export default defineConfig({
  test: {
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache) for the next run:
    // a rerun skips most of the TypeScript transform and import work (decision 0044).
    experimental: { fsModuleCache: true },
    // One worker per core. Vitest's default for `vitest run` is one fewer than the cores: one worker
    // on a 2-core machine, which ran every file of `npm test` after the other (decision 0044).
    maxWorkers: '100%',
    testTimeout: 30_000,
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: [...SHARED_NPM_START, ...OWN_PROCESS, ...FRESH_CLONE],
          setupFiles: ['tests/support/no-child-process.ts'],
          globalSetup: ['tests/support/gazetteer.global.ts'],
          // The files share each worker's modules (zod, better-auth, the catalog) instead of importing
          // them again per file: half the CPU time. They keep no state between files that another reads.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'npm-start',
          // Its files share a worker's modules (playwright-core, the support files), as the unit lane
          // does: import time 14.7 s → 4.3 s for the project. They change no environment or globals.
          isolate: false,
          include: SHARED_NPM_START,
          // One `npm start` per configuration for all of them (tests/support/npm-start.global.ts), and
          // one Chromium for every browser test of the run (tests/support/browser.global.ts).
          globalSetup: ['tests/support/npm-start.global.ts', 'tests/support/browser.global.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: OWN_PROCESS,
          exclude: SHARED_NPM_START,
          globalSetup: ['tests/support/browser.global.ts'],
        },
      },
      { extends: true, test: { name: 'fresh-clone', include: FRESH_CLONE } },
    ],
  },
});
