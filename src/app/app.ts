/**
 * The composition root: every part of the application declared once, in one graph (`graph.ts`). A part
 * is built on first use from the parts it names; heavy ones load their code with `import()`, so a request
 * compiles only what it reaches (a public MCP call never loads better-auth, Kysely, pg, ioredis or Stripe).
 * The Node server and each Vercel function take their parts from this graph, and a function's bundle
 * keeps only what it reaches.
 */
import { createCronHandler } from '../alerts/cron.ts';
import type { AlertJobDeps } from '../alerts/run.ts';
import { createApiReplier, toFetchHandler } from '../rest/handler.ts';
import { DATA_RATE_LIMIT } from '../rest/data-port.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Graph, lazy } from './graph.ts';
import { partOf } from './paths.ts';
import { settingsFromProcess, storeConfigOf, type Settings } from './settings.ts';
import { alertJobCoordination, logEnsembleRequest, sharedCache } from './shared-state.ts';

/**
 * The REST API: built at once from the public URLs (no I/O); its data endpoints' sources (`restData`)
 * are built on their first request, so `/v1/tailwind` and a cold start load no data code.
 */
const restApi = (graph: Graph) => createApiReplier(graph.settings.urls, { data: graph.get(restData) });

/** The Redis client when `REDIS_URL` is set, else undefined (shared state stays in this instance). */
const redis = ({ settings: { redisUrl: url } }: Graph) =>
  lazy(async () => {
    const onError = (error: Error) => console.warn(`redis: ${error.message}; using this instance's memory`);
    return url ? (await import('../store/shared-state/redis.ts')).openRedis(url, { onError }) : undefined;
  });

/** `WOS_SEGMENTS_FILE`, else the index `scripts/vercel/bundle-functions.ts` packs beside a bundle, else the GeoJSON. */
const catalog = ({ settings: { segmentsFile } }: Graph) =>
  lazy(async () => {
    const bundled = fileURLToPath(new URL('./catalog.segidx', import.meta.url));
    const file = segmentsFile || (existsSync(bundled) ? bundled : undefined);
    return (await import('../data/segments/open-catalog.ts')).openSegmentCatalog(file);
  });

/**
 * The catalog every surface queries: the built-in one, or with `WOS_DISCOVERY=online` the live catalog
 * over it (discovered areas from the store, discovery on demand); the store opens on the first discovery.
 */
const servedCatalog = (graph: Graph) =>
  lazy(async () => {
    const base = await graph.get(catalog)();
    if (graph.settings.discovery.mode !== 'online') return { catalog: base, discovery: undefined };
    const { openLiveCatalog } = await import('./discovery.ts');
    // On Vercel a discovery still running after the answer goes on within the function's lifetime.
    const keepAlive = graph.settings.onVercel ? (await import('@vercel/functions')).waitUntil : undefined;
    const live = openLiveCatalog(graph.settings.discovery, base, graph.get(store), graph.get(redis), {
      ...(keepAlive ? { keepAlive } : {}),
    });
    return { catalog: live, discovery: live };
  });

/** The forecast source the settings choose, its cache shared through Redis when set. */
const forecast = (graph: Graph) =>
  lazy(async () => {
    const { createForecast } = await import('../data/forecast/select-forecast.ts');
    return createForecast(graph.settings.forecast, await sharedCache(graph.get(redis), 'forecast'));
  });

/** The ensemble behind the chance of a tailwind; null when off. */
const ensemble = (graph: Graph) =>
  lazy(async () => {
    const { createEnsemble } = await import('../data/forecast/select-ensemble.ts');
    const shared = await sharedCache(graph.get(redis), 'ensemble');
    return createEnsemble(graph.settings.ensemble, { onRequest: logEnsembleRequest, ...shared });
  });

/** What the MCP tools read. The gazetteer reads its file on the first place name, not here. */
const toolData = (graph: Graph) =>
  lazy(async () => {
    const [{ createGeocoder }, [segments, weather, members]] = await Promise.all([
      import('../data/geocoding/select-geocoder.ts'),
      graph.need(servedCatalog, forecast, ensemble),
    ]);
    const geocoder = createGeocoder(graph.settings.geocoder);
    const { catalog: served, discovery } = segments;
    return {
      catalog: served,
      ...(discovery ? { discovery } : {}),
      geocoder,
      forecast: weather,
      ensemble: members,
      now: Date.now,
    };
  });

/** Elevation profiles for `/v1/segments/{id}`: the seed tiles, or with `online` those before the elevation API. */
const segmentProfiles = ({ settings }: Graph) =>
  lazy(async () => (await import('./segment-profiles.ts')).openSegmentProfiles(settings.discovery));

/**
 * What `/v1/wind` and `/v1/segments` read (`rest-data.ts`): the tools' catalog, forecast and geocoder,
 * no ensemble and no store, and their per-address limit (in Redis when set).
 */
const restData = (graph: Graph) =>
  lazy(async () => {
    const [{ openRestData }, { createGeocoder }, { restDataLimiter }, [segments, weather, client]] =
      await Promise.all([
        import('./rest-data.ts'),
        import('../data/geocoding/select-geocoder.ts'),
        import('./shared-limits.ts'),
        graph.need(servedCatalog, forecast, redis),
      ]);
    const { catalog: served, discovery } = segments;
    return openRestData({
      catalog: served,
      ...(discovery ? { discovery } : {}),
      geocoder: createGeocoder(graph.settings.geocoder),
      forecast: weather,
      now: Date.now,
      limiter: await restDataLimiter(client, DATA_RATE_LIMIT),
      profiles: graph.get(segmentProfiles),
    });
  });

/** The rider store, opened and migrated. */
const store = ({ settings }: Graph) =>
  lazy(async () => (await import('./migrations.ts')).openMigratedStore(storeConfigOf(settings)));

/** The alert job: the store, the catalog, the forecasts and its lock; nothing of MCP or sign-in. */
const alertJob = (graph: Graph) =>
  lazy(async (): Promise<AlertJobDeps> => {
    const parts = await graph.need(store, servedCatalog, forecast, ensemble, redis);
    const [opened, { catalog: segments }, weather, members, client] = parts;
    const deps = { store: opened, catalog: segments, forecast: weather, ensemble: members, now: Date.now };
    return { ...deps, ...(await alertJobCoordination(client, opened)) };
  });

/** The alert job behind `CRON_SECRET`. */
const cron = (graph: Graph) =>
  createCronHandler({
    secret: () => graph.settings.cronSecret,
    job: async () => (await import('../alerts/run.ts')).runAlertJob(await graph.get(alertJob)()),
  });

/** The host, origin and rate rules in front of both MCP addresses. */
const mcpConfig = ({ settings }: Graph) =>
  lazy(async () => (await import('../mcp/endpoint-guard.ts')).mcpGuardConfig(settings.mcp));

/** The authorization server over the store, the settings API and payments (`rider-endpoints.ts`). */
const riderEndpoints = (graph: Graph) =>
  lazy(async () => {
    const [{ openRiderEndpoints }, parts] = await Promise.all([
      import('./rider-endpoints.ts'),
      graph.need(store, mcpConfig, redis, servedCatalog),
    ]);
    const [opened, guard, client, { catalog: served }] = parts;
    return openRiderEndpoints(graph.settings, opened, guard, client, served);
  });

/** `/mcp`: the public tools over the data; no store, no authorization server. */
const publicMcp = (graph: Graph) =>
  lazy(async () => {
    const [{ openPublicMcp }, parts] = await Promise.all([
      import('./public-mcp.ts'),
      graph.need(mcpConfig, toolData, redis),
    ]);
    return openPublicMcp(graph.settings, ...parts);
  });

/** `/mcp/rider` and the rider's HTTP paths, over the store (`mcp-service.ts`). */
const riderSide = (graph: Graph) =>
  lazy(async () => {
    const [{ openRiderSide }, parts] = await Promise.all([
      import('./mcp-service.ts'),
      graph.need(store, riderEndpoints, toolData, mcpConfig, redis),
    ]);
    return openRiderSide(graph.settings, ...parts);
  });

/** `/mcp`, `/mcp/rider` and the rider's HTTP paths as one handler; the rider side opens on first need. */
const mcpService = (graph: Graph) =>
  lazy(async () => {
    const { createMcpService } = await import('./mcp-service.ts');
    return createMcpService({ publicEndpoint: graph.get(publicMcp), openRider: graph.get(riderSide) });
  });

/** For `npm start` (`src/server/main.ts`), the scripts and the tests. */
export function createApp(settings: Settings = settingsFromProcess()) {
  const graph = new Graph(settings);
  const [restReplier, data, mcp] = [graph.get(restApi), graph.get(toolData), graph.get(mcpService)];
  const [opened, guard, job] = [graph.get(store), graph.get(mcpConfig), graph.get(alertJob)];
  return { settings, restReplier, data, store: opened, mcpConfig: guard, mcp, alertJob: job };
}

/**
 * The REST API (`api/_entries/rest.ts`): its bundle holds no MCP, store or sign-in code. Vercel names the
 * caller in `x-real-ip`, which the data endpoints' per-address limit counts by.
 */
export function restFunction(settings = settingsFromProcess()) {
  const handle = toFetchHandler(new Graph(settings).get(restApi));
  return (request: Request): Promise<Response> =>
    handle(request, request.headers.get('x-real-ip') ?? undefined);
}

/** The alert job behind `CRON_SECRET` (`api/_entries/cron-alerts.ts`): no MCP or sign-in code. */
export const cronFunction = (settings = settingsFromProcess()) => new Graph(settings).get(cron);

/**
 * `/mcp`, `/mcp/rider` and the sign-in paths (`api/_entries/mcp.ts`); the public address (the path table's
 * `mcp-public` part) goes straight to its endpoint, so a public call never loads the rider side's
 * dispatch. Vercel names the caller in `x-real-ip`; the address travels beside the request from here.
 */
export function mcpFunction(settings = settingsFromProcess()) {
  const graph = new Graph(settings);
  const [publicEndpoint, service] = [graph.get(publicMcp), graph.get(mcpService)];
  return async (request: Request): Promise<Response> => {
    const client = { address: request.headers.get('x-real-ip') ?? 'unknown' };
    if (partOf(new URL(request.url).pathname) === 'mcp-public')
      return (await publicEndpoint())(request, client);
    return (await service()).handle(request, client);
  };
}
