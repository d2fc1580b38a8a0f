import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { startAlerts } from '../alerts/schedule.ts';
import { createApp } from '../app/app.ts';
import { SettingsError } from '../app/settings.ts';
import { createHttpServer } from './http-server.ts';
import { STOP_SIGNALS } from './server-thread.ts';
import { createSiteListener } from './site-listener.ts';

const siteDir = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Builds the app, opens the store, starts the alert interval and listens. */
async function start(): Promise<void> {
  const app = createApp();
  const { port, host, alertsIntervalMs } = app.settings;
  const service = await app.mcp();
  // Open and migrate the rider store now, so a bad DATABASE_URL stops start-up instead of the first sign-in.
  const { store } = await service.rider();
  const stopAlerts = startAlerts(alertsIntervalMs, await app.alertJob());
  const mcp = { handle: service.handle, trustProxy: (await app.mcpConfig()).trustProxy };
  const { docsUrl } = app.settings.urls;
  const server = createHttpServer(
    await createSiteListener({ siteDir, reply: app.restReplier, mcp, docsUrl }),
    {
      docsUrl,
    },
  );

  // Unset HOST listens on every interface, IPv4 and IPv6, like most hosts expect.
  server.listen(port, host, () => {
    const shown = host && host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
    console.log(`wind-on-segment listening on http://${shown}:${port}/${host ? '' : ' (all interfaces)'}`);
    // One line per data source, demo or live and from where; each live address is asked once, so an
    // unreachable one is said now rather than at a rider's first search (and `/health` reports it).
    void app.sources.check((line) => console.log(line));
  });

  /** Finishes the requests in flight, then exits: what a process manager expects on SIGTERM. */
  function shutDown(): void {
    server.close(() => {
      void (stopAlerts?.() ?? Promise.resolve()).then(() => store.close()).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.once('SIGTERM', shutDown);
  process.once('SIGINT', shutDown);
  // In the thread `npm start` runs it in (server-thread.ts), the signals arrive as messages.
  parentPort?.on('message', (message: unknown) => {
    if (STOP_SIGNALS.some((signal) => signal === message)) shutDown();
  });
  parentPort?.unref();
}

// A refused setting is the operator's to fix: its message alone says what and how, a stack trace would bury it.
await start().catch((error: unknown) => {
  if (!(error instanceof SettingsError)) throw error;
  console.error(`wind-on-segment cannot start. ${error.message}`);
  process.exit(1);
});
