/**
 * Every environment variable the service reads, in one zod schema composed of
 * one schema per topic (`settings/*.ts`: the server, its public URLs, shared
 * state, forecast, places, segments, MCP, the rider store, sign-in, alerts,
 * payments, the platform), parsed once. Each entry names the variable, its
 * default, its bounds (in the `accepts` phrase the error message quotes) and
 * what it does; the configuration tables of docs/operating.md are generated
 * from it, in the order the topics are composed here. The types follow the
 * entries: `Environment` is the schema's output and `Settings` the type of
 * what `interpret` makes of it, so a new variable is its entry in its topic's
 * schema (and, where a service takes it, one line in that topic's reader).
 *
 * An invalid value stops start-up with one message that names the variable,
 * the value and the accepted form; an unknown `WOS_*` variable is reported as
 * a likely typo with the closest known name. Nothing else under `src/` reads
 * `process.env`: the composition root (`src/app/app.ts`) hands the parsed
 * settings to the services it builds.
 */
import { z } from 'zod';
import { boundedEditDistance } from '../core/edit-distance.ts';
import { AlertSettingsSchema } from './settings/alerts.ts';
import { AuthSettingsSchema } from './settings/auth.ts';
import { billingConfigOf, BillingSettingsSchema } from './settings/billing.ts';
import { ensembleOf, forecastOf, ForecastSettingsSchema } from './settings/forecast.ts';
import { McpSettingsSchema, mcpOf } from './settings/mcp.ts';
import { liveByDefault, LiveDataSettingsSchema } from './settings/live-data.ts';
import { NotificationSettingsSchema, notificationsOf } from './settings/notifications.ts';
import { geocoderOf, PlaceSettingsSchema } from './settings/places.ts';
import { PlatformSettingsSchema } from './settings/platform.ts';
import { discoveryOf, SegmentSettingsSchema } from './settings/segments.ts';
import { ServerSettingsSchema } from './settings/server.ts';
import { SETTING_DOCS, type SettingDoc } from './settings/setting-field.ts';
import { SettingsError } from './settings/settings-error.ts';
import { SharedStateSettingsSchema } from './settings/shared-state.ts';
import { storeOf, StoreSettingsSchema } from './settings/store.ts';
import { publicUrlsOf, UrlSettingsSchema } from './settings/urls.ts';

export type { SettingDoc, SettingGroup } from './settings/setting-field.ts';
export { SettingsError } from './settings/settings-error.ts';
export { storeConfigOf } from './settings/store.ts';

/**
 * One zod schema over the whole environment: the topics' fields side by side.
 * Their order is the order of the docs tables and of the refusals in an error.
 */
export const EnvironmentSchema = z.object({
  ...ServerSettingsSchema.shape,
  ...UrlSettingsSchema.shape,
  ...SharedStateSettingsSchema.shape,
  ...LiveDataSettingsSchema.shape,
  ...ForecastSettingsSchema.shape,
  ...PlaceSettingsSchema.shape,
  ...SegmentSettingsSchema.shape,
  ...McpSettingsSchema.shape,
  ...StoreSettingsSchema.shape,
  ...AuthSettingsSchema.shape,
  ...AlertSettingsSchema.shape,
  ...NotificationSettingsSchema.shape,
  ...BillingSettingsSchema.shape,
  ...PlatformSettingsSchema.shape,
});

/** Every variable, by name: the fields of {@link EnvironmentSchema}. */
export const SETTINGS = EnvironmentSchema.shape;

export type SettingName = keyof typeof SETTINGS;

/** Every variable's value as parsed, by name: the type follows each entry of `SETTINGS`. */
export type Environment = z.infer<typeof EnvironmentSchema>;

/** What the docs say of a setting (its group, default, meaning and accepted form). */
export function settingDoc(name: SettingName): SettingDoc {
  const doc = SETTING_DOCS.get(SETTINGS[name]);
  if (!doc) throw new Error(`${name} has no documentation`);
  return doc;
}

/** The one message for a refused value: the variable, the value (unless secret) and the accepted form. */
function refusal(name: SettingName, raw: string): string {
  const { secret, accepts } = settingDoc(name);
  const shown = secret ? `the ${raw.length}-character value given` : `"${raw}"`;
  return `${name} must be ${accepts}, not ${shown}.`;
}

/** What the services are built from: the environment, parsed and interpreted once (`readSettings`). */
export type Settings = Readonly<ReturnType<typeof interpret>>;

function hostnameOf(url: string | undefined): string[] {
  if (!url) return [];
  const parsed = URL.parse(url.includes('://') ? url : `https://${url}`);
  return parsed ? [parsed.hostname] : [];
}

/** Unknown `WOS_*` names, each with the closest known one when it is a likely typo. */
export function unknownSettings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = Object.keys(SETTINGS);
  return Object.keys(env)
    .filter((name) => name.startsWith('WOS_') && !known.includes(name))
    .map((name) => {
      const closest = known
        .map((candidate) => ({ candidate, distance: boundedEditDistance(name, candidate, 4) }))
        .sort((a, b) => a.distance - b.distance)[0];
      return closest && closest.distance <= 3
        ? `${name} is not a setting; did you mean ${closest.candidate}?`
        : `${name} is not a setting of this service.`;
    });
}

/**
 * Parses and interprets the environment. Throws one error listing every
 * refused value; `warn` receives a line per unknown `WOS_*` variable.
 */
export function readSettings(
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void = () => undefined,
): Settings {
  // Parsed once per process: zod's compiled parser for this wide object would cost a cold start more
  // to build (4–8 ms) than the one parse it serves (2 ms without).
  const parsed = EnvironmentSchema.safeParse(env, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const text: unknown = issue.code === 'custom' ? issue.params?.['text'] : undefined;
      const name = String(issue.path[0]) as SettingName;
      return `  ${typeof text === 'string' && name in SETTINGS ? refusal(name, text) : issue.message}`;
    });
    throw new SettingsError(`Invalid environment:\n${lines.join('\n')}`);
  }
  for (const line of unknownSettings(env)) warn(`settings: ${line}`);
  return interpret(parsed.data);
}

/**
 * The parsed variables grouped as the services take them; `Settings` is this
 * object's type. Each topic reads its own variables; only what crosses topics
 * is wired here (the Open-Meteo key for the geocoder, the public hosts the MCP
 * guard allows).
 */
function interpret(v: Environment) {
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

let processSettings: Settings | undefined;

/** This process's settings, read from `process.env` on first use; unknown `WOS_*` names are warned about once. */
export function settingsFromProcess(): Settings {
  processSettings ??= readSettings(process.env, (line) => console.warn(line));
  return processSettings;
}
