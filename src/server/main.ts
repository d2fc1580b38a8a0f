import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../http/config.ts';
import { mcpConfigFromEnv } from '../mcp/config.ts';
import { mcpEndpointFromEnv } from '../mcp/from-env.ts';
import { createSiteListener } from './app.ts';

/** Default port of `npm start`; `PORT` overrides it. */
export const DEFAULT_PORT = 3000;

const siteDir = fileURLToPath(new URL('../../dist/', import.meta.url));
const mcp = {
  endpoint: mcpEndpointFromEnv(process.env),
  trustProxy: mcpConfigFromEnv(process.env).trustProxy,
};
const server = createServer(await createSiteListener({ siteDir, config: configFromEnv(process.env), mcp }));
const port = Number(process.env['PORT'] ?? DEFAULT_PORT);
// Unset HOST listens on every interface, IPv4 and IPv6, like most hosts expect.
const host = process.env['HOST'] || undefined;

server.listen(port, host, () => {
  const shown = host && host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
  console.log(`wind-on-segment listening on http://${shown}:${port}/${host ? '' : ' (all interfaces)'}`);
});

/** Finishes the requests in flight, then exits: what a process manager expects on SIGTERM. */
function shutDown(): void {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
}
process.once('SIGTERM', shutDown);
process.once('SIGINT', shutDown);
