import { fileURLToPath } from 'node:url';
import { FastResponse, serve } from 'srvx';
import { configFromEnv } from '../http/config.ts';
import { createApiHandler } from '../http/handler.ts';
import { createSiteServer } from './app.ts';

/** Default port of `npm start`; `PORT` overrides it. */
export const DEFAULT_PORT = 3000;

const siteDir = fileURLToPath(new URL('../../dist/', import.meta.url));
const api = createApiHandler(configFromEnv(process.env), { Response: FastResponse });
const site = await createSiteServer({ siteDir, api });

serve({
  ...site,
  port: process.env['PORT'] ?? DEFAULT_PORT,
  // Unset HOST listens on every interface, IPv4 and IPv6, like most hosts expect.
  ...(process.env['HOST'] ? { hostname: process.env['HOST'] } : {}),
});
