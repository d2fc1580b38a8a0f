import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../http/config.ts';
import { mcpConfigFromEnv } from '../mcp/config.ts';
import { startAlertsFromEnv } from '../alerts/schedule.ts';
import { depsFromEnv } from '../mcp/from-env.ts';
import { mcpServiceFromEnv } from '../mcp/service.ts';
import { createSiteListener } from './app.ts';
import { createHttpServer } from './http-server.ts';

/** Default port of `npm start`; `PORT` overrides it. */
export const DEFAULT_PORT = 3000;

const siteDir = fileURLToPath(new URL('../../dist/', import.meta.url));
const deps = depsFromEnv(process.env);
const service = mcpServiceFromEnv(process.env, deps);
// Open and migrate the rider store now, so a bad DATABASE_URL stops start-up instead of the first sign-in.
const { store } = await service.rider();
const stopAlerts = startAlertsFromEnv(process.env, { ...deps, store });
const mcp = { handle: service.handle, trustProxy: mcpConfigFromEnv(process.env).trustProxy };
const config = configFromEnv(process.env);
const server = createHttpServer(await createSiteListener({ siteDir, config, mcp }), {
  docsUrl: config.docsUrl,
});
const port = Number(process.env['PORT'] ?? DEFAULT_PORT);
// Unset HOST listens on every interface, IPv4 and IPv6, like most hosts expect.
const host = process.env['HOST'] || undefined;

server.listen(port, host, () => {
  const shown = host && host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
  console.log(`wind-on-segment listening on http://${shown}:${port}/${host ? '' : ' (all interfaces)'}`);
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
