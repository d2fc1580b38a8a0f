/**
 * Every environment variable the service reads, as one zod schema built from the entries the topics
 * declare (`settings/*.ts`: the server, its public URLs, shared state, forecast, places, segments,
 * MCP, the rider store, sign-in, alerts, payments, the platform; composed in
 * `settings/environment.ts`), parsed once. Each entry names the variable, its default, its bounds
 * (in the `accepts` phrase the error message quotes), what it does and how its text is read; the
 * configuration tables of docs/operating.md are generated from it, in the order the topics are
 * composed. The types follow the entries: `Environment` is what the entries read and `Settings` the
 * type of what `interpret` makes of it, so a new variable is its entry in its topic's table (and,
 * where a service takes it, one line in that topic's reader).
 *
 * An invalid value stops start-up with one message that names the variable,
 * the value and the accepted form; an unknown `WOS_*` variable is reported as
 * a likely typo with the closest known name. Nothing else under `src/` reads
 * `process.env`, but for the REST function's start, which reads the same entries without zod
 * (`settings/plain-settings.ts`, decision 0045) and comes here for any refusal: the composition
 * root (`src/app/app.ts`) hands the parsed settings to the services it builds.
 */
import { ENVIRONMENT, unknownSettings, type Environment, type SettingName } from './settings/environment.ts';
import { interpret, type Settings } from './settings/interpret.ts';
import { refusal, type SettingDoc } from './settings/setting-field.ts';
import { SETTING_DOCS, settingsSchema } from './settings/setting-schema.ts';
import { invalidEnvironment } from './settings/settings-error.ts';

export type { SettingName } from './settings/environment.ts';
export { unknownSettings } from './settings/environment.ts';
export type { Settings } from './settings/interpret.ts';
export type { SettingDoc, SettingGroup } from './settings/setting-field.ts';
export { SettingsError } from './settings/settings-error.ts';
export { storeConfigOf } from './settings/store.ts';

/**
 * One zod schema over the whole environment: a field per entry of `ENVIRONMENT`, the topics'
 * tables side by side. Their order is the order of the docs tables and of the refusals in an error.
 */
export const EnvironmentSchema = settingsSchema(ENVIRONMENT);

/** Every variable, by name: the fields of {@link EnvironmentSchema}. */
export const SETTINGS = EnvironmentSchema.shape;

/** What the docs say of a setting (its group, default, meaning and accepted form). */
export function settingDoc(name: SettingName): SettingDoc {
  const doc = SETTING_DOCS.get(SETTINGS[name]);
  if (!doc) throw new Error(`${name} has no documentation`);
  return doc;
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
      return typeof text === 'string' && name in SETTINGS
        ? refusal(name, settingDoc(name), text)
        : issue.message;
    });
    throw invalidEnvironment(lines);
  }
  for (const line of unknownSettings(env)) warn(`settings: ${line}`);
  return interpret(parsed.data as Environment);
}

let processSettings: Settings | undefined;

/** This process's settings, read from `process.env` on first use; unknown `WOS_*` names are warned about once. */
export function settingsFromProcess(): Settings {
  processSettings ??= readSettings(process.env, (line) => console.warn(line));
  return processSettings;
}
