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
import type { McpService, RiderServices } from '../mcp/mcp-service.ts';
import type { ClientInfo } from '../rest/client-address.ts';
import { createApiReplier, toFetchHandler, type ApiReplier } from '../rest/handler.ts';
import type { Store } from '../store/database.ts';
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
  /** `/mcp`, `/mcp/rider` and the sign-in paths as one handler. */
  readonly mcp: () => Promise<McpService>;
  readonly alertJob: () => Promise<AlertJobDeps>;
  /** The alert job behind `CRON_SECRET`, for `api/cron-alerts.ts`. */
  readonly cron: (request: Request) => Promise<Response>;
}

export function createApp(settings: Settings = settingsFromProcess()): App {
  const restReplier = createApiReplier(settings.urls);

  const catalog = lazy(async () =>
    (await import('../data/segments/open-catalog.ts')).openSegmentCatalog(settings.segmentsFile),
  );
  /** The one Redis client of this instance, when `REDIS_URL` is set ("Shared state" in README.md). */
  const redis = lazy(async () => {
    const { redisUrl } = settings;
    if (!redisUrl) return undefined;
    const { openRedis } = await import('../store/shared-state/redis.ts');
    return openRedis(redisUrl, {
      onError: (error) => console.warn(`redis: ${error.message}; using this instance's memory meanwhile`),
    });
  });

  const forecast = lazy(async () => {
    const [{ createForecast }, { createRedisKeyValue }, client] = await Promise.all([
      import('../data/forecast/select-forecast.ts'),
      import('../store/shared-state/key-value.ts'),
      redis(),
    ]);
    const shared = client ? createRedisKeyValue(client, `${REDIS_PREFIX}forecast:`) : undefined;
    return createForecast(settings.forecast, { shared });
  });
  const data = lazy(async (): Promise<McpDeps> => {
    const { createGeocoder } = await import('../data/geocoding/select-geocoder.ts');
    return {
      catalog: await catalog(),
      geocoder: createGeocoder(settings.geocoder),
      forecast: await forecast(),
      now: Date.now,
    };
  });

  const store = lazy(async () => {
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

  const mcpConfig = lazy(async () => (await import('../mcp/endpoint-guard.ts')).mcpGuardConfig(settings.mcp));

  const auth = lazy(async () => {
    const [{ createAuthService }, { authConfigFor }] = await Promise.all([
      import('../auth/auth-service.ts'),
      import('../auth/secret.ts'),
    ]);
    const [opened, guard, segments] = await Promise.all([store(), mcpConfig(), catalog()]);
    const { authSecret: secret, onVercel, siteOrigin } = settings;
    const config = authConfigFor(
      { secret, onVercel, siteOrigin, allowedHosts: guard.allowedHosts },
      storeConfigOf(settings),
    );
    return createAuthService({ store: opened, config, segmentName: (id) => segments.get(id)?.name });
  });

  const mcp = lazy(async () => {
    const [{ createMcpEndpoint }, { createMcpService, scopedAuthenticate }, { PUBLIC_TOOLS }, riderTools] =
      await Promise.all([
        import('../mcp/endpoint.ts'),
        import('../mcp/mcp-service.ts'),
        import('../mcp/tools/public.ts'),
        import('../mcp/tools/rider/index.ts'),
      ]);
    const [guard, client] = await Promise.all([mcpConfig(), redis()]);
    /** One allowance per connection across instances when Redis is set; else each endpoint's own bucket. */
    const sharedLimiter = async (address: 'public' | 'rider') => {
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
    const publicEndpoint = lazy(async () =>
      createMcpEndpoint({
        deps: await data(),
        api: settings.urls,
        mcp: guard,
        tools: PUBLIC_TOOLS,
        ...(await sharedLimiter('public')),
      }),
    );
    const openRider = async (): Promise<RiderServices> => {
      const [opened, riderAuth, deps, limiter] = await Promise.all([
        store(),
        auth(),
        data(),
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
    return createMcpService({ publicEndpoint, openRider });
  });

  const alertJob = lazy(async (): Promise<AlertJobDeps> => {
    const [opened, segments, weather, client] = await Promise.all([store(), catalog(), forecast(), redis()]);
    const lock = client
      ? await (async () => {
          const [{ createRedisLock }, { ALERT_JOB_LOCK_TTL_MS }] = await Promise.all([
            import('../store/shared-state/lock.ts'),
            import('../alerts/run.ts'),
          ]);
          return { lock: createRedisLock(client, `${REDIS_PREFIX}alert-job:lock`, ALERT_JOB_LOCK_TTL_MS) };
        })()
      : {};
    return { store: opened, catalog: segments, forecast: weather, now: Date.now, ...lock };
  });

  const cron = createCronHandler({
    secret: () => settings.cronSecret,
    job: async () => (await import('../alerts/run.ts')).runAlertJob(await alertJob()),
  });

  return { settings, restReplier, data, store, auth, mcpConfig, mcp, alertJob, cron };
}

/** The REST API as a fetch handler (`api/rest.ts`). */
export function restFetch(app: App): (request: Request) => Promise<Response> {
  return toFetchHandler(app.restReplier);
}

/** The MCP side as a Vercel function: Vercel puts the caller's address in `x-real-ip`. */
export function mcpFetch(app: App): (request: Request) => Promise<Response> {
  return async (request) => {
    const client: ClientInfo = { address: request.headers.get('x-real-ip') ?? 'unknown' };
    return (await app.mcp()).handle(request, client);
  };
}
