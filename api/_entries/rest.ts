import { nodeRestHandler } from '../../src/app/node-rest-function.ts';
import { restFunction, restReplier } from '../../src/app/rest-api.ts';
import { withSegmentPages } from '../../src/app/rest-function.ts';
import { functionSettings } from '../../src/app/settings/plain-settings.ts';

const replier = restReplier(functionSettings());
const forms = withSegmentPages(replier, { fetch: restFunction(replier), node: nodeRestHandler(replier) });

/**
 * The whole REST API as one Vercel function, and a segment's pages; `vercel.json` rewrites their
 * paths here. Vercel's runtime unwraps `default` as far as it goes and, finding a function with no
 * `fetch`, calls it with Node's request and response: no web `Request` is built (decision 0045), and
 * the deploy tests' router (`tests/support/vercel-output.ts`) calls it the same way. The `fetch` form
 * of the same replier stays for callers that take one; a unit test holds both to the same bytes.
 * The settings are read from their entries without zod (`functionSettings`).
 */
export default { fetch: forms.fetch, default: forms.node };
