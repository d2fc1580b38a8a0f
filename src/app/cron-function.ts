/**
 * The cron function's wiring, apart from `app.ts` so its bundle's entry holds no REST code.
 */
import { createCronHandler } from '../alerts/cron.ts';
import { Graph } from './graph.ts';
import { alertJob } from './parts.ts';
import { settingsFromProcess } from './settings.ts';

/** The alert job behind `CRON_SECRET`. */
const cron = (graph: Graph) =>
  createCronHandler({
    secret: () => graph.settings.cronSecret,
    job: async () => (await import('../alerts/run.ts')).runAlertJob(await graph.get(alertJob)()),
  });

/** The alert job behind `CRON_SECRET` (`api/_entries/cron-alerts.ts`): no MCP or sign-in code. */
export const cronFunction = (settings = settingsFromProcess()) => new Graph(settings).get(cron);
