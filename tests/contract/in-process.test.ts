import { createApiHandler } from '../../src/rest/handler.ts';
import { testDeps } from '../support/mcp-deps.ts';
import { describeContract } from './run-contract.ts';

/** The handler with the data endpoints' sources as `npm start` builds them: demo forecast, gazetteer, catalog. */
const data = {
  ...testDeps({ now: Date.now }),
  limiter: { take: async () => ({ allowed: true, retryAfterS: 0 }) },
};
const handle = createApiHandler({}, { data: async () => data });
const origin = 'http://wind-on-segment.test';

describeContract('in-process handler', () => ({
  origin,
  fetch: (path, init) => handle(new Request(new URL(path, origin), init)),
}));
