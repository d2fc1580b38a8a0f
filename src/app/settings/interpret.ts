/**
 * The variables as read (`Environment`), grouped as the services take them: what `readSettings`
 * (`../settings.ts`) and the REST function's reader without zod (`plain-settings.ts`) both return.
 */
import { billingConfigOf } from './billing.ts';
import type { Environment } from './environment.ts';
import { ensembleOf, forecastOf } from './forecast.ts';
import { liveByDefault } from './live-data.ts';
import { mcpOf } from './mcp.ts';
import { notificationsOf } from './notifications.ts';
import { geocoderOf } from './places.ts';
import { discoveryOf } from './segments.ts';
import { storeOf } from './store.ts';
import { publicUrlsOf } from './urls.ts';

function hostnameOf(url: string | undefined): string[] {
  if (!url) return [];
  const parsed = URL.parse(url.includes('://') ? url : `https://${url}`);
  return parsed ? [parsed.hostname] : [];
}

/** What the services are built from: the environment, read and interpreted once. */
export type Settings = Readonly<ReturnType<typeof interpret>>;

/**
 * The variables grouped as the services take them; `Settings` is this
 * object's type. Each topic reads its own variables; only what crosses topics
 * is wired here (the Open-Meteo key for the geocoder, the public hosts the MCP
 * guard allows).
 */
export function interpret(v: Environment) {
  const live = liveByDefault(v);
  return {
    port: v.PORT,
    host: v.HOST,
    urls: publicUrlsOf(v),
    siteOrigin: v.WOS_SITE_URL ? new URL(v.WOS_SITE_URL).origin : undefined,
    live,
    forecast: forecastOf(v, live),
    ensemble: ensembleOf(v, live),
    geocoder: geocoderOf(v, live),
    segmentsFile: v.WOS_SEGMENTS_FILE,
    discovery: discoveryOf(v, live),
    redisUrl: v.REDIS_URL,
    mcp: mcpOf(
      v,
      [
        v.WOS_SITE_URL,
        v.WOS_BASE_URL,
        v.WOS_MCP_URL,
        v.VERCEL_URL,
        v.VERCEL_BRANCH_URL,
        v.VERCEL_PROJECT_PRODUCTION_URL,
      ].flatMap(hostnameOf),
    ),
    store: storeOf(v),
    authSecret: v.BETTER_AUTH_SECRET,
    alertsIntervalMs: v.WOS_ALERTS_INTERVAL_MS,
    cronSecret: v.CRON_SECRET,
    notifications: notificationsOf(v),
    billing: billingConfigOf(v),
    onVercel: v.VERCEL,
  };
}
