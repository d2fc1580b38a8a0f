/**
 * The parts of the composition root's graph (`graph.ts`), each declared once as a function of the
 * graph and built on first use; heavy ones load their code with `import()`, so a request compiles only
 * what it reaches (a public MCP call never loads better-auth, Kysely, pg, ioredis or Stripe). The
 * REST handler is not among them: it lives in `app.ts`, which only the REST function, `createApp` and
 * the scripts import, so the MCP and cron functions' entry modules carry no REST code (their bundles
 * used to evaluate its schemas and the prebuilt OpenAPI document at every cold start).
 */
import type { AlertJobDeps } from '../alerts/run.ts';
import { DATA_RATE_LIMIT, type RestData } from '../rest/data-port.ts';
import { lazy, type Graph } from './graph.ts';
import { storeConfigOf } from './settings/store.ts';
import { alertJobCoordination, logEnsembleRequest, sharedCache } from './shared-state.ts';
import { createSourceStatus } from './source-status.ts';

/** Which sources this server reads and how each fared: the start log and `/health` (`source-status.ts`). */
export const sourceStatus = (graph: Graph) => createSourceStatus(graph.settings);

/** The Redis client when `REDIS_URL` is set, else undefined (shared state stays in this instance). */
const redis = ({ settings: { redisUrl: url } }: Graph) =>
  lazy(async () => {
    const onError = (error: Error) => console.warn(`redis: ${error.message}; using this instance's memory`);
    return url ? (await import('../store/shared-state/redis.ts')).openRedis(url, { onError }) : undefined;
  });

/** `WOS_SEGMENTS_FILE`, else the index `scripts/vercel/bundle-functions.ts` packs beside a bundle, else the GeoJSON. */
const catalog = ({ settings: { segmentsFile } }: Graph) =>
  lazy(async () => {
    // Taken as Node's own objects, here: an ES import of `node:fs`, `import()` too, builds its module
    // facade, whose stream getters load `fs/promises` and `readline` (8 ms of the REST function's start,
    // which never opens the catalog; the file streams at the MCP function's first call, which does).
    const { existsSync } = process.getBuiltinModule('node:fs');
    const { fileURLToPath } = process.getBuiltinModule('node:url');
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
    const status = graph.get(sourceStatus);
    return createForecast(graph.settings.forecast, {
      ...(await sharedCache(graph.get(redis), 'forecast')),
      watch: (failure) => status.told('forecast', failure),
    });
  });

/** The ensemble behind the chance of a tailwind; null when off. */
const ensemble = (graph: Graph) =>
  lazy(async () => {
    const { createEnsemble } = await import('../data/forecast/select-ensemble.ts');
    const shared = await sharedCache(graph.get(redis), 'ensemble');
    return createEnsemble(graph.settings.ensemble, { onRequest: logEnsembleRequest, ...shared });
  });

/** Tells the source status how each online place search went. */
const geocoderWatch = (graph: Graph) => (failure: unknown) =>
  graph.get(sourceStatus).told('geocoder', failure);

/** What the MCP tools read. The gazetteer reads its file on the first place name, not here. */
export const toolData = (graph: Graph) =>
  lazy(async () => {
    const [{ createGeocoder }, [segments, weather, members]] = await Promise.all([
      import('../data/geocoding/select-geocoder.ts'),
      graph.need(servedCatalog, forecast, ensemble),
    ]);
    const geocoder = createGeocoder(graph.settings.geocoder, geocoderWatch(graph));
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
 * What `/v1/wind` and `/v1/segments` read (`src/rest/data-port.ts`): the tools' catalog, forecast and
 * geocoder, no ensemble and no store, the elevation profiles, and their per-address limit (in Redis
 * when set). The use cases themselves load with the REST routes that call them.
 */
export const restData = (graph: Graph) =>
  lazy(async (): Promise<RestData> => {
    const [{ createGeocoder }, { restDataLimiter }, [segments, weather, client]] = await Promise.all([
      import('../data/geocoding/select-geocoder.ts'),
      import('./shared-limits.ts'),
      graph.need(servedCatalog, forecast, redis),
    ]);
    const { catalog: served, discovery } = segments;
    return {
      catalog: served,
      ...(discovery ? { discovery } : {}),
      geocoder: createGeocoder(graph.settings.geocoder, geocoderWatch(graph)),
      forecast: weather,
      now: Date.now,
      limiter: await restDataLimiter(client, DATA_RATE_LIMIT),
      profiles: graph.get(segmentProfiles),
    };
  });

/** The rider store, opened and migrated. */
export const store = ({ settings }: Graph) =>
  lazy(async () => (await import('./migrations.ts')).openMigratedStore(storeConfigOf(settings)));

/** The mailer: SMTP with `WOS_SMTP_URL`, else the outbox folder (`notifications.ts`). */
export const mailer = ({ settings }: Graph) =>
  lazy(async () => (await import('./notifications.ts')).openMailer(settings));

/** The alert job: the store, the catalog, the forecasts, its lock, mail and push; nothing of MCP or sign-in. */
export const alertJob = (graph: Graph) =>
  lazy(async (): Promise<AlertJobDeps> => {
    const [{ alertChannels }, parts] = await Promise.all([
      import('./notifications.ts'),
      graph.need(store, servedCatalog, forecast, ensemble, redis, mailer),
    ]);
    const [opened, { catalog: segments }, weather, members, client, mail] = parts;
    const deps = { store: opened, catalog: segments, forecast: weather, ensemble: members, now: Date.now };
    const channels = alertChannels(graph.settings, opened, mail);
    return { ...deps, channels, ...(await alertJobCoordination(client, opened)) };
  });

/** The host, origin and rate rules in front of both MCP addresses. */
export const mcpConfig = ({ settings }: Graph) =>
  lazy(async () => (await import('../mcp/endpoint-guard.ts')).mcpGuardConfig(settings.mcp));

/** The authorization server over the store, the settings API and payments (`rider-endpoints.ts`). */
const riderEndpoints = (graph: Graph) =>
  lazy(async () => {
    const [{ openRiderEndpoints }, parts] = await Promise.all([
      import('./rider-endpoints.ts'),
      graph.need(store, mcpConfig, redis, servedCatalog, mailer),
    ]);
    const [opened, guard, client, { catalog: served }, mail] = parts;
    return openRiderEndpoints(graph.settings, opened, guard, client, served, mail);
  });

/** `/mcp`: the public tools over the data; no store, no authorization server. */
export const publicMcp = (graph: Graph) =>
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
export const mcpService = (graph: Graph) =>
  lazy(async () => {
    const { createMcpService } = await import('./mcp-service.ts');
    return createMcpService({ publicEndpoint: graph.get(publicMcp), openRider: graph.get(riderSide) });
  });
