import { cronHandlerFromEnv } from '../src/alerts/cron.ts';

/** The tailwind alert job as a Vercel cron function (`crons` in `vercel.json`); needs `CRON_SECRET`. */
export default { fetch: cronHandlerFromEnv(process.env) };
