import { configFromEnv } from '../src/rest/urls.ts';
import { createApiHandler } from '../src/rest/handler.ts';

/** The whole REST API as one Vercel function; `vercel.json` rewrites its paths here. */
export default { fetch: createApiHandler(configFromEnv(process.env)) };
