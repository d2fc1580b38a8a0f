import { restFunction, restReplier } from '../../src/app/app.ts';
import { nodeRestHandler } from '../../src/app/node-rest-function.ts';

const replier = restReplier();

/**
 * The whole REST API as one Vercel function; `vercel.json` rewrites its paths here. Vercel's runtime
 * unwraps `default` as far as it goes and, finding a function with no `fetch`, calls it with Node's
 * request and response: no web `Request` is built (decision 0045). The object around it keeps a
 * `fetch` form of the same replier for callers that take one (the deploy tests' router in
 * `tests/support/vercel-output.ts`); the answers are the same bytes.
 */
export default { fetch: restFunction(replier), default: nodeRestHandler(replier) };
