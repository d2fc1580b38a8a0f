import { defineConfig } from 'vitest/config';

/**
 * Files that start a child process (`npm start`, `npm run dev`, Chromium, a CLI, `vercel build`),
 * need PostgreSQL or read the built site. Everything else is the unit lane: `npm run test:unit`.
 */
const INTEGRATION = [
  'tests/e2e/**/*.test.ts',
  'tests/rider/**/*.test.ts',
  'tests/deploy/**/*.test.ts',
  'tests/contract/socket.test.ts',
  'tests/contract/raw-requests.test.ts',
  'tests/contract/dev-server.test.ts',
  'tests/contract/openapi.test.ts',
  // Its own npm start: 10,000 raw requests run the per-address sign-in limits dry for a while.
  'tests/contract/listener-fuzz.test.ts',
  'tests/mcp/socket.test.ts',
  'tests/mcp/conformance.test.ts',
  'tests/auth/conformance.test.ts',
  'tests/auth/flow.test.ts',
  'tests/auth/pages.test.ts',
  'tests/auth/own-segments-page.test.ts',
  'tests/auth/refresh-grace.test.ts',
  'tests/store/postgres.test.ts',
  'tests/billing/postgres.test.ts',
  'tests/billing/checkout-browser.test.ts',
  'tests/billing/npm-start.test.ts',
  'tests/unit/segments-import.test.ts',
  'tests/unit/segments-discover-cli.test.ts',
  'tests/server/**/*.test.ts',
];

/** Integration files that share one `npm start` per configuration (tests/support/npm-start.global.ts). */
const SHARED_NPM_START = [
  'tests/e2e/**/*.test.ts',
  'tests/contract/socket.test.ts',
  'tests/contract/raw-requests.test.ts',
  'tests/mcp/socket.test.ts',
  'tests/mcp/conformance.test.ts',
];

const ALL = ['tests/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: INTEGRATION,
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
          include: SHARED_NPM_START,
          globalSetup: ['tests/support/npm-start.global.ts'],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: SHARED_NPM_START } },
    ],
  },
});
