/**
 * Every environment variable the service reads, in one zod schema, parsed
 * once. Each entry names the variable, its default, its bounds (in the
 * `accepts` phrase the error message quotes) and what it does; the
 * configuration tables of docs/operating.md are generated from it. The types
 * follow the entries: `Environment` is the schema's output and `Settings` the
 * type of what `interpret` makes of it, so a new variable is its entry in
 * `SETTINGS` (and, where a service takes it, one line in `interpret`).
 *
 * An invalid value stops start-up with one message that names the variable,
 * the value and the accepted form; an unknown `WOS_*` variable is reported as
 * a likely typo with the closest known name. Nothing else under `src/` reads
 * `process.env`: the composition root (`src/app/app.ts`) hands the parsed
 * settings to the services it builds.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import type { BillingConfig } from '../billing/config.ts';
import { boundedEditDistance } from '../data/geocoding/edit-distance.ts';
import type { ApiConfig } from '../http/public-urls.ts';
import type { StoreConfig } from '../store/database.ts';

/** The table of the README a setting is listed in. */
export type SettingGroup = 'server' | 'data' | 'mcp' | 'riders' | 'payments' | 'platform';

/** What the docs say of a setting and how its refusal reads: kept beside its schema (`settingDoc`). */
export interface SettingDoc {
  readonly group: SettingGroup;
  /** The default as the README shows it. */
  readonly shownDefault: string;
  readonly description: string;
  /** The accepted form, completing "NAME must be …". */
  readonly accepts: string;
  /** Secrets are never echoed back in an error message. */
  readonly secret?: boolean;
}

interface SettingSpec<T> extends SettingDoc {
  /** Reads the trimmed, non-empty text; `undefined` for a value it refuses. */
  readonly parse: (text: string) => T | undefined;
  readonly fallback: T;
}

/** Every setting's documentation, registered on its schema. */
const SETTING_DOCS = z.registry<SettingDoc>();

/**
 * One variable's field of the environment schema: trims the text, parses it
 * and falls back to the default when it is unset or blank. A refused value
 * becomes an issue carrying the text, which `readSettings` words.
 */
function spec<T>({ parse, fallback, ...doc }: SettingSpec<T>) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const text = raw?.trim();
      if (!text) return fallback;
      const value = parse(text);
      if (value !== undefined) return value;
      ctx.addIssue({ code: 'custom', message: 'refused', params: { text } });
      return z.NEVER;
    })
    .register(SETTING_DOCS, doc);
}

type SettingField<T> = ReturnType<typeof spec<T>>;

function wholeNumber(min: number, max: number) {
  return (text: string): number | undefined => {
    const value = Number(text);
    return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
  };
}

function positiveNumber(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function oneOf<const T extends string>(...choices: T[]) {
  return (text: string): T | undefined => choices.find((choice) => choice === text);
}

/** An http(s) URL without its trailing slash, as the link builders join paths onto it. */
function httpUrl(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return text.endsWith('/') ? text.slice(0, -1) : text;
}

const list = (text: string): readonly string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const flag = (text: string): boolean | undefined =>
  ({ '1': true, true: true, '0': false, false: false })[text.toLowerCase()];

const anyText = (text: string): string => text;

const PRICE_PLANS = { MONTHLY: 'Pro Monthly', ANNUAL: 'Pro Annual', LIFETIME: 'Pro Lifetime' } as const;

/** `STRIPE_PRICE_<PLAN>_<CURRENCY>`: the six Stripe prices, one per paid plan and currency. */
function priceSettings() {
  const entries = (Object.keys(PRICE_PLANS) as (keyof typeof PRICE_PLANS)[]).flatMap((plan) =>
    (['EUR', 'USD'] as const).map(
      (currency) =>
        [
          `STRIPE_PRICE_PRO_${plan}_${currency}`,
          spec<string | undefined>({
            group: 'payments',
            shownDefault: 'unset',
            description: `Stripe price id of ${PRICE_PLANS[plan]} in ${currency}`,
            accepts: 'a Stripe price id (price_…)',
            parse: (text) => (/^price_[A-Za-z0-9_]+$/.test(text) ? text : undefined),
            fallback: undefined,
          }),
        ] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<
    `STRIPE_PRICE_PRO_${keyof typeof PRICE_PLANS}_${'EUR' | 'USD'}`,
    SettingField<string | undefined>
  >;
}

/** Every variable, by name. */
export const SETTINGS = {
  PORT: spec({
    group: 'server',
    shownDefault: '`3000`',
    description: 'Port of `npm start`',
    accepts: 'a port number from 0 to 65535',
    parse: wholeNumber(0, 65_535),
    fallback: 3000,
  }),
  HOST: spec<string | undefined>({
    group: 'server',
    shownDefault: 'every interface (IPv4 and IPv6)',
    description: 'Address `npm start` listens on, e.g. `127.0.0.1`',
    accepts: 'a host name or address',
    parse: anyText,
    fallback: undefined,
  }),
  WOS_SITE_URL: spec<string | undefined>({
    group: 'server',
    shownDefault: 'request origin',
    description: 'Origin of the documentation site (pricing link, sign-in origin, defaults below)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_BASE_URL: spec<string | undefined>({
    group: 'server',
    shownDefault: 'request origin',
    description: '`{base_url}`: the API origin, the OpenAPI `servers` entry',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_DOCS_URL: spec<string | undefined>({
    group: 'server',
    shownDefault: '`<site>/docs`',
    description: '`{docs_url}`: base of every problem `type` URI',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_MCP_URL: spec<string | undefined>({
    group: 'server',
    shownDefault: '`<site>/mcp`',
    description: '`{mcp_url}`: the public MCP address',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  REDIS_URL: spec<string | undefined>({
    group: 'server',
    shownDefault: 'unset (memory)',
    description: 'State shared by every instance (see "Shared state")',
    accepts: 'a redis:// or rediss:// URL',
    secret: true,
    parse: (text) => (/^rediss?:\/\//i.test(text) ? text : undefined),
    fallback: undefined,
  }),
  WOS_FORECAST: spec<'demo' | 'open-meteo'>({
    group: 'data',
    shownDefault: '`demo`',
    description: '`demo` (synthetic, offline) or `open-meteo` (real forecasts)',
    accepts: '"demo" or "open-meteo"',
    parse: oneOf('demo', 'open-meteo'),
    fallback: 'demo',
  }),
  OPEN_METEO_API_KEY: spec<string | undefined>({
    group: 'data',
    shownDefault: 'unset',
    description: "Use Open-Meteo's commercial endpoints (forecast and geocoding) with this key",
    accepts: 'an Open-Meteo API key',
    secret: true,
    parse: anyText,
    fallback: undefined,
  }),
  WOS_FORECAST_TIMEOUT_MS: spec({
    group: 'data',
    shownDefault: '`4000`',
    description: 'Per-attempt timeout of a forecast request (100–60000); 2 retries on 429 and 5xx',
    accepts: 'a whole number of milliseconds from 100 to 60000',
    parse: wholeNumber(100, 60_000),
    fallback: 4000,
  }),
  WOS_ENSEMBLE: spec<'demo' | 'open-meteo' | 'off' | undefined>({
    group: 'data',
    shownDefault: '`demo` with the demo forecast, else `off`',
    description:
      'Chance of a tailwind from ensemble members: `demo` (synthetic), `open-meteo` (its ensemble API, about 10 calls per location) or `off`',
    accepts: '"demo", "open-meteo" or "off"',
    parse: oneOf('demo', 'open-meteo', 'off'),
    fallback: undefined,
  }),
  WOS_ENSEMBLE_MODEL: spec<'ecmwf_ifs025' | 'gfs025'>({
    group: 'data',
    shownDefault: '`ecmwf_ifs025`',
    description: 'Ensemble model: `ecmwf_ifs025` (ECMWF IFS, 51 members) or `gfs025` (NCEP GEFS, 31 members)',
    accepts: '"ecmwf_ifs025" or "gfs025"',
    parse: oneOf('ecmwf_ifs025', 'gfs025'),
    fallback: 'ecmwf_ifs025',
  }),
  WOS_GEOCODER: spec<'gazetteer' | 'open-meteo'>({
    group: 'data',
    shownDefault: '`gazetteer`',
    description: '`gazetteer` (embedded GeoNames) or `open-meteo` (Open-Meteo geocoding)',
    accepts: '"gazetteer" or "open-meteo"',
    parse: oneOf('gazetteer', 'open-meteo'),
    fallback: 'gazetteer',
  }),
  WOS_SEGMENTS_FILE: spec<string | undefined>({
    group: 'data',
    shownDefault: 'embedded catalog',
    description:
      'A packed segment index (`npm run segments:import`) or GeoJSON catalog used instead of the embedded one',
    accepts: 'a file path',
    parse: anyText,
    fallback: undefined,
  }),
  WOS_DISCOVERY: spec<'seed' | 'online'>({
    group: 'data',
    shownDefault: '`seed`',
    description:
      '`seed` (segments discovered from the shipped OpenStreetMap extracts only, offline) or `online` (a place with too few segments is discovered from Overpass and the elevation API on demand, stored in the rider store)',
    accepts: '"seed" or "online"',
    parse: oneOf('seed', 'online'),
    fallback: 'seed',
  }),
  WOS_OVERPASS_URL: spec<string>({
    group: 'data',
    shownDefault: '`https://overpass-api.de/api/interpreter`',
    description:
      'Overpass API interpreter that `online` discovery reads roads from (a self-hosted one is welcome)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: 'https://overpass-api.de/api/interpreter',
  }),
  WOS_ELEVATION_URL: spec<string>({
    group: 'data',
    shownDefault: '`https://api.open-meteo.com/v1/elevation`',
    description:
      "Open-Meteo's Elevation API (or a server speaking it) that `online` discovery reads heights from",
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: 'https://api.open-meteo.com/v1/elevation',
  }),
  WOS_MCP_ALLOWED_HOSTS: spec<readonly string[]>({
    group: 'mcp',
    shownDefault: "localhost, the `WOS_*_URL` hosts, Vercel's",
    description: 'Extra host names a request may name in `Host` (DNS-rebinding guard); `*` allows any',
    accepts: 'a comma-separated list of host names',
    parse: list,
    fallback: [],
  }),
  WOS_MCP_ALLOWED_ORIGINS: spec<readonly string[]>({
    group: 'mcp',
    shownDefault: 'none beyond the allowed hosts',
    description: 'Extra browser origin host names allowed to call the server; `*` allows any',
    accepts: 'a comma-separated list of host names',
    parse: list,
    fallback: [],
  }),
  WOS_MCP_RATE_PER_MINUTE: spec({
    group: 'mcp',
    shownDefault: '`60`',
    description:
      'Tool calls per minute per connection, on average: a window of the burst lasts burst ÷ rate min',
    accepts: 'a positive number',
    parse: positiveNumber,
    fallback: 60,
  }),
  WOS_MCP_RATE_BURST: spec({
    group: 'mcp',
    shownDefault: '`20`',
    description: 'Tool calls a connection may make in one window (at once, if it likes)',
    accepts: 'a positive number',
    parse: positiveNumber,
    fallback: 20,
  }),
  WOS_TRUST_PROXY: spec({
    group: 'mcp',
    shownDefault: 'unset',
    description:
      '`1`: `npm start` takes the client IP from the first `X-Forwarded-For` entry (behind your proxy)',
    accepts: '"1", "true", "0" or "false"',
    parse: flag,
    fallback: false,
  }),
  DATABASE_URL: spec<string | undefined>({
    group: 'riders',
    shownDefault: 'unset (SQLite)',
    description: 'PostgreSQL rider store; required on Vercel',
    accepts: 'a postgres:// or postgresql:// URL',
    secret: true,
    parse: (text) => (/^postgres(ql)?:\/\//i.test(text) ? text : undefined),
    fallback: undefined,
  }),
  WOS_DATABASE_PATH: spec({
    group: 'riders',
    shownDefault: '`data/wind-on-segment.sqlite`',
    description: 'SQLite rider store file (or `:memory:`) when `DATABASE_URL` is unset',
    accepts: 'a file path or ":memory:"',
    parse: anyText,
    fallback: 'data/wind-on-segment.sqlite',
  }),
  BETTER_AUTH_SECRET: spec<string | undefined>({
    group: 'riders',
    shownDefault: 'generated beside the SQLite file',
    description: 'Signs sign-ins and encrypts the token keys; required with PostgreSQL or on Vercel',
    accepts: 'at least 32 characters (try: openssl rand -base64 32)',
    secret: true,
    parse: (text) => (text.length >= 32 ? text : undefined),
    fallback: undefined,
  }),
  WOS_ALERTS_INTERVAL_MS: spec<number | null>({
    group: 'riders',
    shownDefault: '`900000` (15 min)',
    description: 'How often `npm start` evaluates tailwind alerts; `0` turns the job off',
    accepts: '0 (off) or a whole number of milliseconds from 60000 to 86400000',
    parse: (text) => (text === '0' ? null : wholeNumber(60_000, 86_400_000)(text)),
    fallback: 900_000,
  }),
  CRON_SECRET: spec<string | undefined>({
    group: 'riders',
    shownDefault: 'unset (every call refused)',
    description: 'Bearer token `/api/cron-alerts` requires (Vercel Cron sends it)',
    accepts: 'a token',
    secret: true,
    parse: anyText,
    fallback: undefined,
  }),
  STRIPE_SECRET_KEY: spec<string | undefined>({
    group: 'payments',
    shownDefault: 'unset (no payments)',
    description: 'Stripe secret key (`sk_test_…` in test mode); with the rest below, turns payments on',
    accepts: 'a Stripe secret or restricted key (sk_… or rk_…)',
    secret: true,
    parse: (text) => (/^(sk|rk)_[A-Za-z0-9_]+$/.test(text) ? text : undefined),
    fallback: undefined,
  }),
  STRIPE_WEBHOOK_SECRET: spec<string | undefined>({
    group: 'payments',
    shownDefault: 'unset',
    description: 'Signing secret of the webhook endpoint `/api/billing/webhook`',
    accepts: 'a Stripe webhook signing secret (whsec_…)',
    secret: true,
    parse: (text) => (/^whsec_[A-Za-z0-9_+/=]+$/.test(text) ? text : undefined),
    fallback: undefined,
  }),
  ...priceSettings(),
  STRIPE_API_BASE: spec<string | undefined>({
    group: 'payments',
    shownDefault: "Stripe's API",
    description: 'Another Stripe API origin: the local test double (`npm run stripe:double`)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  VERCEL: spec({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: 'On Vercel: the rider store must be PostgreSQL and the auth secret set',
    accepts: 'any value',
    parse: () => true,
    fallback: false,
  }),
  VERCEL_URL: spec<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The deployment's own host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_BRANCH_URL: spec<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The branch deployment's host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
  VERCEL_PROJECT_PRODUCTION_URL: spec<string | undefined>({
    group: 'platform',
    shownDefault: 'set by Vercel',
    description: "The project's production host, allowed at `/mcp`",
    accepts: 'a host name',
    parse: anyText,
    fallback: undefined,
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;

/** One zod schema over the whole environment, its fields the entries of {@link SETTINGS}. */
export const EnvironmentSchema = z.object(SETTINGS);

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
 * A setting the service cannot start with. Its message is written for the
 * operator (variable, value, accepted form), so adapters print the message
 * alone and exit instead of showing a stack trace.
 */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
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

/** The parsed variables grouped as the services take them; `Settings` is this object's type. */
function interpret(v: Environment) {
  const urls: ApiConfig = {
    ...(v.WOS_SITE_URL ? { siteUrl: v.WOS_SITE_URL } : {}),
    ...(v.WOS_BASE_URL ? { baseUrl: v.WOS_BASE_URL } : {}),
    ...(v.WOS_DOCS_URL ? { docsUrl: v.WOS_DOCS_URL } : {}),
    ...(v.WOS_MCP_URL ? { mcpUrl: v.WOS_MCP_URL } : {}),
  };
  return {
    port: v.PORT,
    host: v.HOST,
    urls,
    siteOrigin: v.WOS_SITE_URL ? new URL(v.WOS_SITE_URL).origin : undefined,
    forecast: { source: v.WOS_FORECAST, apiKey: v.OPEN_METEO_API_KEY, timeoutMs: v.WOS_FORECAST_TIMEOUT_MS },
    // Real forecasts never come with demo probabilities unasked: the ensemble follows the forecast
    // to `demo`, and real ensembles (paid per member) are only ever switched on explicitly.
    ensemble: {
      source: v.WOS_ENSEMBLE ?? (v.WOS_FORECAST === 'demo' ? 'demo' : 'off'),
      model: v.WOS_ENSEMBLE_MODEL,
      apiKey: v.OPEN_METEO_API_KEY,
      timeoutMs: v.WOS_FORECAST_TIMEOUT_MS,
    },
    geocoder: { source: v.WOS_GEOCODER, apiKey: v.OPEN_METEO_API_KEY },
    segmentsFile: v.WOS_SEGMENTS_FILE,
    discovery: { mode: v.WOS_DISCOVERY, overpassUrl: v.WOS_OVERPASS_URL, elevationUrl: v.WOS_ELEVATION_URL },
    redisUrl: v.REDIS_URL,
    mcp: {
      publicHosts: [
        v.WOS_SITE_URL,
        v.WOS_BASE_URL,
        v.WOS_MCP_URL,
        v.VERCEL_URL,
        v.VERCEL_BRANCH_URL,
        v.VERCEL_PROJECT_PRODUCTION_URL,
      ].flatMap(hostnameOf),
      extraHosts: v.WOS_MCP_ALLOWED_HOSTS,
      allowedOrigins: v.WOS_MCP_ALLOWED_ORIGINS,
      ratePerMinute: v.WOS_MCP_RATE_PER_MINUTE,
      rateBurst: v.WOS_MCP_RATE_BURST,
      trustProxy: v.WOS_TRUST_PROXY,
    },
    store: { databaseUrl: v.DATABASE_URL, sqlitePath: v.WOS_DATABASE_PATH },
    authSecret: v.BETTER_AUTH_SECRET,
    alertsIntervalMs: v.WOS_ALERTS_INTERVAL_MS,
    cronSecret: v.CRON_SECRET,
    billing: billingConfigOf(v),
    onVercel: v.VERCEL,
  };
}

/**
 * Payments are on with every required `STRIPE_*` variable set and off with
 * none; anything between stops start-up naming what is missing, so a
 * deployment never shows a Buy button that leads nowhere.
 */
function billingConfigOf(v: Environment): BillingConfig | undefined {
  const required = {
    STRIPE_SECRET_KEY: v.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: v.STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO_MONTHLY_EUR: v.STRIPE_PRICE_PRO_MONTHLY_EUR,
    STRIPE_PRICE_PRO_MONTHLY_USD: v.STRIPE_PRICE_PRO_MONTHLY_USD,
    STRIPE_PRICE_PRO_ANNUAL_EUR: v.STRIPE_PRICE_PRO_ANNUAL_EUR,
    STRIPE_PRICE_PRO_ANNUAL_USD: v.STRIPE_PRICE_PRO_ANNUAL_USD,
    STRIPE_PRICE_PRO_LIFETIME_EUR: v.STRIPE_PRICE_PRO_LIFETIME_EUR,
    STRIPE_PRICE_PRO_LIFETIME_USD: v.STRIPE_PRICE_PRO_LIFETIME_USD,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  const anySet = missing.length < Object.keys(required).length || v.STRIPE_API_BASE !== undefined;
  if (!anySet) return undefined;
  if (missing.length > 0) {
    throw new SettingsError(
      `Payments are only partly configured: set ${missing.join(', ')} too, ` +
        'or unset every STRIPE_* variable to run without payments (see "Payments (Stripe)" in docs/operating.md).',
    );
  }
  const price = (name: keyof typeof required): string => required[name] ?? '';
  return {
    secretKey: price('STRIPE_SECRET_KEY'),
    webhookSecret: price('STRIPE_WEBHOOK_SECRET'),
    prices: {
      pro_monthly: { eur: price('STRIPE_PRICE_PRO_MONTHLY_EUR'), usd: price('STRIPE_PRICE_PRO_MONTHLY_USD') },
      pro_annual: { eur: price('STRIPE_PRICE_PRO_ANNUAL_EUR'), usd: price('STRIPE_PRICE_PRO_ANNUAL_USD') },
      pro_lifetime: {
        eur: price('STRIPE_PRICE_PRO_LIFETIME_EUR'),
        usd: price('STRIPE_PRICE_PRO_LIFETIME_USD'),
      },
    },
    apiBase: v.STRIPE_API_BASE,
  };
}

/**
 * The rider store the settings choose: PostgreSQL when `DATABASE_URL` is set,
 * else the SQLite file (relative paths resolve from `cwd`). Refuses SQLite on
 * Vercel, where the file would vanish with the instance; asked only by the
 * services that open the store, so the REST function starts without one.
 */
export function storeConfigOf(settings: Settings, cwd: string = process.cwd()): StoreConfig {
  const { databaseUrl, sqlitePath } = settings.store;
  if (databaseUrl) return { engine: 'postgres', url: databaseUrl };
  if (settings.onVercel) {
    throw new SettingsError(
      'Set DATABASE_URL to a PostgreSQL database: a SQLite file does not persist on Vercel',
    );
  }
  return { engine: 'sqlite', path: sqlitePath === ':memory:' ? sqlitePath : resolve(cwd, sqlitePath) };
}

let processSettings: Settings | undefined;

/** This process's settings, read from `process.env` on first use; unknown `WOS_*` names are warned about once. */
export function settingsFromProcess(): Settings {
  processSettings ??= readSettings(process.env, (line) => console.warn(line));
  return processSettings;
}
