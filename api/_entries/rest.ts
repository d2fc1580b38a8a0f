import { restFunction } from '../../src/app/app.ts';

/** The whole REST API as one Vercel function; `vercel.json` rewrites its paths here. */
export default { fetch: restFunction() };
