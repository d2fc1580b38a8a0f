/**
 * The composition root: the whole application wired on one screen. It reads
 * the settings once and builds each service once, on first use, for the Node
 * server (`src/server/main.ts`), the Vercel functions (`api/*`) and the
 * scripts. Heavy parts load through `import()` only when a path needs them,
 * so the REST function never loads better-auth, the store or the gazetteer,
 * and the cron function never loads the MCP server or the authorization server.
 */
import { createCronHandler } from '../alerts/cron.ts';
import type { AlertJobDeps } from '../alerts/run.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { McpDeps } from '../mcp/context.ts';
import type { McpConfig } from '../mcp/endpoint-guard.ts';
import type { McpEndpoint } from '../mcp/endpoint.ts';
import type { McpService, RiderServices } from './mcp-service.ts';
import type { ClientInfo } from '../http/client-address.ts';
import { createApiReplier, toFetchHandler, type ApiReplier } from '../rest/handler.ts';
import type { Store } from '../store/database.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsFromProcess, storeConfigOf, type Settings } from './settings.ts';

/** Every key this application writes to Redis starts so, so it can share a server with others. */
const REDIS_PREFIX = 'wos:';

/** A lazy value built once; a failed build is forgotten so the next call retries. */
function lazy<T>(build: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= build().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

export interface App {
  readonly settings: Settings;
  /** The REST API: needs only the public URLs, so it is built at once (no I/O). */
  readonly restReplier: ApiReplier;
  readonly data: () => Promise<McpDeps>;
  /** The rider store, opened and migrated (`src/app/migrations.ts`). */
  readonly store: () => Promise<Store>;
  readonly auth: () => Promise<AuthService>;
  readonly mcpConfig: () => Promise<McpConfig>;
  /** The public address `/mcp` alone: no store, no authorization server. */
  readonly publicMcp: () => Promise<McpEndpoint>;
  /** `/mcp`, `/mcp/rider` and the sign-in paths as one handler. */
  readonly mcp: () => Promise<McpService>;
  readonly alertJob: () => Promise<AlertJobDeps>;
  /** The alert job behind `CRON_SECRET`, for `api/_entries/cron-alerts.ts`. */
  readonly cron: (request: Request) => Promise<Response>;
}

/**
 * The embedded catalog as a packed index, which only the function bundles
 * carry (`scripts/vercel/bundle-functions.ts` packs it beside them, where
 * this module lands too). Opening it validates nothing, so a cold function
 * skips the zod pass over the GeoJSON the index was packed from; run from
 * the sources, the file is absent and the GeoJSON is read as before.
 */
const BUNDLED_CATALOG_INDEX = new URL('./catalog.segidx', import.meta.url);

/** `WOS_SEGMENTS_FILE` when set, else the bundled index of the embedded catalog if there is one. */
function catalogFile(settings: Settings): string | undefined {
  if (settings.segmentsFile !== undefined && settings.segmentsFile !== '') return settings.segmentsFile;
  const bundled = fileURLToPath(BUNDLED_CATALOG_INDEX);
  return existsSync(bundled) ? bundled : undefined;
}

/**
 * The segment catalog, the forecast and the instance's Redis client (when
 * `REDIS_URL` is set, "Shared state" in README.md): built on first use.
 */
function dataParts(settings: Settings) {
  const catalog = lazy(async () =>
    (await import('../data/segments/open-catalog.ts')).openSegmentCatalog(catalogFile(settings)),
  );
  const redis = lazy(async () => {
    const { redisUrl } = settings;
    if (!redisUrl) return undefined;
    const { openRedis } = await import('../store/shared-state/redis.ts');
    return openRedis(redisUrl, {
      onError: (error) => console.warn(`redis: ${error.message}; using this instance's memory meanwhile`),
    });
  });
  const forecast = lazy(async () => {
    const [{ createForecast }, client] = await Promise.all([
      import('../data/forecast/select-forecast.ts'),
      redis(),
    ]);
    if (!client) return createForecast(settings.forecast);
    const { createRedisKeyValue } = await import('../store/shared-state/key-value.ts');
    return createForecast(settings.forecast, {
      shared: createRedisKeyValue(client, `${REDIS_PREFIX}forecast:`),
    });
  });
  const ensemble = lazy(async () => {
    const [{ createEnsemble }, client] = await Promise.all([
      import('../data/forecast/select-ensemble.ts'),
      redis(),
    ]);
    // One line per upstream ensemble request: its weight is what the provider bills.
    const onRequest = (r: { model: string; locations: number; weight: number }) =>
      console.log(`ensemble: ${r.model} request for ${r.locations} location(s), weight ${r.weight} calls`);
    if (!client) return createEnsemble(settings.ensemble, { onRequest });
    const { createRedisKeyValue } = await import('../store/shared-state/key-value.ts');
    return createEnsemble(settings.ensemble, {
      onRequest,
      shared: createRedisKeyValue(client, `${REDIS_PREFIX}ensemble:`),
    });
  });
  return { catalog, forecast, ensemble, redis };
}

/**
 * What the MCP tools read: the data plus the geocoder. Kept apart from
 * `dataParts` so the cron function's bundle holds no geocoder (and Vercel's
 * tracing adds no gazetteer file to it). The gazetteer is lazy: it reads its
 * file on the first place name, not here.
 */
function toolData(settings: Settings, { catalog, forecast, ensemble }: ReturnType<typeof dataParts>) {
  return lazy(async (): Promise<McpDeps> => {
    const { createGeocoder } = await import('../data/geocoding/select-geocoder.ts');
    return {
      catalog: await catalog(),
      geocoder: createGeocoder(settings.geocoder),
      forecast: await forecast(),
      ensemble: await ensemble(),
      now: Date.now,
    };
  });
}

/** The rider store, opened and migrated on first use. */
function storePart(settings: Settings): () => Promise<Store> {
  return lazy(async () => {
    const [{ openStore }, { migrateToLatest }, { APP_MIGRATIONS }] = await Promise.all([
      import('../store/database.ts'),
      import('../store/migrate.ts'),
      import('./migrations.ts'),
    ]);
    const opened = openStore(storeConfigOf(settings));
    try {
      await migrateToLatest(opened, APP_MIGRATIONS);
    } catch (error) {
      await opened.close().catch(() => undefined);
      throw error;
    }
    return opened;
  });
}

/** The alert job and its cron handler: the store, the catalog and the forecast, nothing of MCP or sign-in. */
function cronParts(settings: Settings, parts: Pick<App, 'store'> & ReturnType<typeof dataParts>) {
  const alertJob = lazy(async (): Promise<AlertJobDeps> => {
    const [opened, segments, weather, ensemble, client] = await Promise.all([
      parts.store(),
      parts.catalog(),
      parts.forecast(),
      parts.ensemble(),
      parts.redis(),
    ]);
    const { sharedCursorStore } = await import('../alerts/cursor.ts');
    // The lock and where a run that ran out of time left off: in Redis when it is set, else in the store.
    const shared = client
      ? await (async () => {
          const [{ createRedisLock }, { ALERT_JOB_LOCK_TTL_MS }, { createRedisKeyValue }] = await Promise.all(
            [
              import('../store/shared-state/lock.ts'),
              import('../alerts/run.ts'),
              import('../store/shared-state/key-value.ts'),
            ],
          );
          return {
            lock: createRedisLock(client, `${REDIS_PREFIX}alert-job:lock`, ALERT_JOB_LOCK_TTL_MS),
            cursor: sharedCursorStore(createRedisKeyValue(client, `${REDIS_PREFIX}alert-job:`), 'cursor'),
          };
        })()
      : await (async () => {
          // Without Redis the store every instance shares holds them, so runs on Vercel still never overlap.
          const [{ createStoreKeyValue, createStoreLock }, { ALERT_JOB_LOCK_TTL_MS }] = await Promise.all([
            import('../store/repositories/job-state.ts'),
            import('../alerts/run.ts'),
          ]);
          return {
            lock: createStoreLock(opened.db, 'alert-job:lock', ALERT_JOB_LOCK_TTL_MS),
            cursor: sharedCursorStore(createStoreKeyValue(opened.db, 'alert-job:'), 'cursor'),
          };
        })();
    return { store: opened, catalog: segments, forecast: weather, ensemble, now: Date.now, ...shared };
  });
  const cron = createCronHandler({
    secret: () => settings.cronSecret,
    job: async () => (await import('../alerts/run.ts')).runAlertJob(await alertJob()),
  });
  return { alertJob, cron };
}

/**
 * The MCP side. The public address loads the MCP server, the public tools
 * and the data; the store, better-auth and the rider tools load only when
 * `/mcp/rider` or a sign-in path is first asked for (`mcpFetch` sends `/mcp`
 * straight to the public address, so it never loads the service that routes
 * the sign-in paths).
 */
function mcpParts(settings: Settings, parts: Pick<App, 'store'> & ReturnType<typeof dataParts>) {
  const { store, catalog, redis } = parts;
  const data = toolData(settings, parts);
  const mcpConfig = lazy(async () => (await import('../mcp/endpoint-guard.ts')).mcpGuardConfig(settings.mcp));

  const auth = lazy(async () => {
    const [{ createAuthService }, { authConfigFor }] = await Promise.all([
      import('../auth/auth-service.ts'),
      import('../auth/secret.ts'),
    ]);
    const [opened, guard, segments, client] = await Promise.all([store(), mcpConfig(), catalog(), redis()]);
    const { authSecret: secret, onVercel, siteOrigin } = settings;
    const config = authConfigFor(
      { secret, onVercel, siteOrigin, allowedHosts: guard.allowedHosts },
      storeConfigOf(settings),
    );
    const billing = settings.billing
      ? {
          config: settings.billing,
          gateway: (await import('../billing/stripe-gateway.ts')).createStripeGateway(settings.billing),
        }
      : undefined;
    // The sign-in limits in Redis when it is set, so instances share one allowance per address.
    const shared = client
      ? {
          rateLimitStorage: (await import('../store/shared-state/rate-limiter.ts')).createRedisWindowLimits(
            client,
            `${REDIS_PREFIX}auth-rate:`,
          ),
        }
      : {};
    return createAuthService({
      store: opened,
      config,
      segmentName: (id) => segments.get(id)?.name,
      docsUrl: settings.urls.docsUrl,
      ...(billing ? { billing } : {}),
      ...shared,
    });
  });

  /** One allowance per connection across instances when Redis is set; else each endpoint's own bucket. */
  const sharedLimiter = async (address: 'public' | 'rider') => {
    const [client, guard] = await Promise.all([redis(), mcpConfig()]);
    if (!client) return {};
    const { createRedisRateLimiter } = await import('../store/shared-state/rate-limiter.ts');
    const { ratePerMinute: perMinute, rateBurst: burst } = guard;
    return {
      limiter: createRedisRateLimiter(client, {
        perMinute,
        burst,
        prefix: `${REDIS_PREFIX}mcp-rate:${address}`,
      }),
    };
  };

  const publicMcp = lazy(async () => {
    const [{ createMcpEndpoint }, { PUBLIC_TOOLS }] = await Promise.all([
      import('../mcp/endpoint.ts'),
      import('../mcp/tools/public.ts'),
    ]);
    const [guard, deps, limiter] = await Promise.all([mcpConfig(), data(), sharedLimiter('public')]);
    return createMcpEndpoint({ ...limiter, deps, api: settings.urls, mcp: guard, tools: PUBLIC_TOOLS });
  });

  const mcp = lazy(async () => {
    const { createMcpService, scopedAuthenticate } = await import('./mcp-service.ts');
    const openRider = async (): Promise<RiderServices> => {
      const [{ createMcpEndpoint }, riderTools, opened, riderAuth, deps, guard, limiter] = await Promise.all([
        import('../mcp/endpoint.ts'),
        import('../mcp/tools/rider/index.ts'),
        store(),
        auth(),
        data(),
        mcpConfig(),
        sharedLimiter('rider'),
      ]);
      const endpoint = createMcpEndpoint({
        ...limiter,
        deps: { ...deps, store: opened },
        api: settings.urls,
        mcp: guard,
        tools: riderTools.RIDER_ADDRESS_TOOLS,
        authenticate: scopedAuthenticate(riderAuth),
      });
      return { store: opened, auth: riderAuth, endpoint };
    };
    return createMcpService({ publicEndpoint: publicMcp, openRider });
  });

  return { mcpConfig, auth, publicMcp, mcp, data };
}

export function createApp(settings: Settings = settingsFromProcess()): App {
  const restReplier = createApiReplier(settings.urls);
  const data = dataParts(settings);
  const store = storePart(settings);
  const { alertJob, cron } = cronParts(settings, { ...data, store });
  const { mcpConfig, auth, publicMcp, mcp, data: toolsData } = mcpParts(settings, { ...data, store });
  return { settings, restReplier, data: toolsData, store, auth, mcpConfig, publicMcp, mcp, alertJob, cron };
}

/**
 * Each Vercel function's handler, built from only the parts it uses, so its
 * bundle (`scripts/vercel/bundle-functions.ts`) holds nothing of the others:
 * the REST function no MCP, store or auth code; the cron function
 * no MCP or sign-in; the MCP function no alert job.
 */
export function restFunction(
  settings: Settings = settingsFromProcess(),
): (request: Request) => Promise<Response> {
  return toFetchHandler(createApiReplier(settings.urls));
}

/** The alert job behind `CRON_SECRET` (`api/_entries/cron-alerts.ts`). */
export function cronFunction(
  settings: Settings = settingsFromProcess(),
): (request: Request) => Promise<Response> {
  return cronParts(settings, { ...dataParts(settings), store: storePart(settings) }).cron;
}

/** `/mcp`, `/mcp/rider` and the sign-in paths (`api/_entries/mcp.ts`). */
export function mcpFunction(
  settings: Settings = settingsFromProcess(),
): (request: Request) => Promise<Response> {
  return mcpFetch(mcpParts(settings, { ...dataParts(settings), store: storePart(settings) }));
}

/** The REST API as a fetch handler. */
export function restFetch(app: App): (request: Request) => Promise<Response> {
  return toFetchHandler(app.restReplier);
}

/**
 * The MCP side as a Vercel function: Vercel puts the caller's address in
 * `x-real-ip`. `/mcp` goes straight to the public address, so a public call
 * never loads the sign-in routes (and better-auth with them).
 */
export function mcpFetch(app: Pick<App, 'publicMcp' | 'mcp'>): (request: Request) => Promise<Response> {
  return async (request) => {
    const client: ClientInfo = { address: request.headers.get('x-real-ip') ?? 'unknown' };
    if (new URL(request.url).pathname === '/mcp') return (await app.publicMcp())(request, client);
    return (await app.mcp()).handle(request, client);
  };
}
