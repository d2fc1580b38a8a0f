import { createApiHandler } from '../../src/rest/handler.ts';
import { describeContract } from './run-contract.ts';

const handle = createApiHandler();
const origin = 'http://wind-on-segment.test';

describeContract('in-process handler', () => ({
  origin,
  fetch: (path, init) => handle(new Request(new URL(path, origin), init)),
}));
