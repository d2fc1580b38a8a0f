import { configFromEnv } from '../src/http/config.ts';
import { createApiHandler } from '../src/http/handler.ts';

/** The whole REST API as one Vercel function; `vercel.json` rewrites its paths here. */
export default { fetch: createApiHandler(configFromEnv(process.env)) };
