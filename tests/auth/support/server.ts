/**
 * A small app like the one `npm start` will mount, on a real node:http server
 * on 127.0.0.1: the auth routes, a stub `/mcp/rider` that runs the rider
 * check and echoes the caller (or, given `mcp`, the real `/mcp` and
 * `/mcp/rider` endpoints), CIMD documents for the fake https client ids, and
 * (for the browser) the site's pages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientMetadataResourceFetch } from '@better-auth/oauth-provider';
import type { ServerRequest } from 'srvx';
import { checkWebhookUrl, type WebhookUrlOptions } from '../../../src/rider/webhook-url.ts';
import { toNodeHandler } from 'srvx/node';
import { createAuthService, type AuthService } from '../../../src/auth/auth-service.ts';
import type { McpDeps } from '../../../src/mcp/context.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../../../src/mcp/tools/public.ts';
import { RIDER_ADDRESS_TOOLS } from '../../../src/mcp/tools/rider/index.ts';
import type { Store } from '../../../src/store/database.ts';
import type { BillingService } from '../../../src/billing/checkout.ts';
import { createRiderEndpoints } from '../../../src/app/rider-endpoints.ts';
import { createMcpService } from '../../../src/app/mcp-service.ts';
import { mcpAddressOf } from '../../../src/rider/access-policy.ts';
import { accountErasure } from '../../../src/app/account-erasure.ts';
import type { Mailer } from '../../../src/data/mail/mailer.ts';
import { vapidKeys } from '../../../src/rider/push-keys.ts';
import { generateSegments } from '../../support/synthetic-segments.ts';
import type { PageHandler } from './pages.ts';

/** The fake host of CIMD client ids; the test transport maps it to this server's /cimd/ route. */
export const CIMD_HOST = 'client.example.test';

/** A catalog of one segment, under a short name the page tests look for. */
const [ALPE] = generateSegments(1).map((segment) => ({
  ...segment,
  id: 'fr-alpe-d-huez',
  name: "Alpe d'Huez",
}));
const NAMED_CATALOG = { get: (id: string) => (id === ALPE?.id ? ALPE : undefined) };

/** The auth settings of every test server; a second service with them shares its grants (another worker). */
export const TEST_AUTH_CONFIG = {
  secret: 'test-secret-0123456789-abcdefghijklmnop',
  allowedHosts: ['127.0.0.1', 'localhost'],
} as const;

export interface AuthServer {
  readonly origin: string;
  readonly service: AuthService;
  readonly store: Store;
  /** Client metadata documents by path under https://client.example.test/. */
  readonly cimdDocs: Map<string, unknown>;
  /** Every CIMD URL the authorization server fetched. */
  readonly cimdFetched: string[];
  close(): Promise<void>;
}

export interface AuthServerOptions {
  readonly store: Store;
  readonly pages?: PageHandler;
  readonly accessTokenTtlS?: number;
  readonly rateLimit?: boolean;
  /** Defaults to 127.0.0.1 and localhost. */
  readonly allowedHosts?: readonly string[];
  /** How the settings API checks webhook URLs; pass a fake `lookup` so no test needs DNS. */
  readonly webhookUrl?: WebhookUrlOptions;
  /** Serve the real MCP endpoints with these deps (the store is the server's own) instead of the stub. */
  readonly mcp?: Omit<McpDeps, 'store'>;
  /** Payments (the Stripe test double's gateway); unset runs without. */
  readonly billing?: BillingService;
  /** Sends the verification and reset mails (to a test SMTP server); unset sends none. */
  readonly mail?: Mailer;
}

/** The public and rider MCP endpoints as `npm start` builds them, with a generous per-connection limit. */
function mcpEndpoints(deps: McpDeps, auth: AuthService): { public: McpEndpoint; rider: McpEndpoint } {
  const mcp = {
    allowedHosts: ['127.0.0.1', 'localhost'],
    allowedOrigins: [],
    ratePerMinute: 6000,
    rateBurst: 1000,
    trustProxy: false,
  };
  return {
    public: createMcpEndpoint({ deps, api: {}, mcp, tools: PUBLIC_TOOLS }),
    rider: createMcpEndpoint({
      deps,
      api: {},
      mcp,
      tools: RIDER_ADDRESS_TOOLS,
      authenticate: auth.authenticate,
    }),
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function startAuthServer(options: AuthServerOptions): Promise<AuthServer> {
  const server = createServer();
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  const cimdDocs = new Map<string, unknown>();
  const cimdFetched: string[] = [];
  // The real transport refuses loopback and private addresses; this one serves the test's documents.
  const cimdFetch: ClientMetadataResourceFetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    cimdFetched.push(url.href);
    if (url.protocol !== 'https:' || url.hostname !== CIMD_HOST)
      throw new Error(`test transport refuses ${url.href}`);
    const doc = cimdDocs.get(url.pathname);
    return doc === undefined ? new Response('not found', { status: 404 }) : Response.json(doc);
  };
  const service = createAuthService({
    store: options.store,
    config: { ...TEST_AUTH_CONFIG, allowedHosts: options.allowedHosts ?? TEST_AUTH_CONFIG.allowedHosts },
    cimdFetch,
    rateLimit: options.rateLimit ?? false,
    ...(options.accessTokenTtlS === undefined ? {} : { accessTokenTtlS: options.accessTokenTtlS }),
    // As `npm start` wires it: the mails, and the erasure (Stripe first) before a deletion.
    account: {
      ...(options.mail ? { mail: options.mail } : {}),
      beforeDelete: accountErasure(options.billing, options.store),
    },
  });
  const routes = createRiderEndpoints({
    auth: service,
    catalog: NAMED_CATALOG,
    billing: options.billing,
    checkTarget: (url) => checkWebhookUrl(url, options.webhookUrl),
    ...(options.mail
      ? {
          channels: {
            mail: options.mail.kind,
            pushPublicKey: async () =>
              (await vapidKeys(options.store.db, Math.floor(Date.now() / 1000))).publicKey,
          },
        }
      : {}),
  });
  const mcp = options.mcp && mcpEndpoints({ ...options.mcp, store: options.store }, service);
  const mcpService =
    mcp &&
    createMcpService({
      publicEndpoint: async () => mcp.public,
      openRider: async () => ({ store: options.store, endpoint: mcp.rider, endpoints: routes }),
    });
  const app = async (request: ServerRequest): Promise<Response> => {
    const client = { address: request.ip ?? 'unknown' };
    const answered = await routes(request, client);
    if (answered) return answered;
    const url = new URL(request.url);
    // The real MCP router: `/mcp/` and `/mcp/rider/` are the addresses too (issue 28).
    if (mcpService && mcpAddressOf(url.pathname)) return mcpService.handle(request, client);
    if (url.pathname === '/mcp/rider') {
      const need = url.searchParams.get('need');
      const check = need ? service.authenticator(need.split(' ')) : service.authenticate;
      const caller = await check(request);
      return caller instanceof Response ? caller : Response.json({ caller });
    }
    return (await options.pages?.(request)) ?? new Response('not found', { status: 404 });
  };
  server.on('request', toNodeHandler(app) as (...args: unknown[]) => void);
  return {
    origin,
    service,
    store: options.store,
    cimdDocs,
    cimdFetched,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A loopback "native client" that receives the authorization response. */
export interface CallbackServer {
  readonly redirectUri: string;
  /** The query of every callback so far, in order. */
  readonly received: URLSearchParams[];
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><title>Connected</title><p>You can close this tab.</p></html>',
    );
  });
  const port = await listen(server);
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
