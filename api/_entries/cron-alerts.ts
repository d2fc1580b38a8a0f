import { cronFunction } from '../../src/app/cron-function.ts';

/** The tailwind alert job as a Vercel cron function (`crons` in `vercel.json`); needs `CRON_SECRET`. */
export default { fetch: cronFunction() };
