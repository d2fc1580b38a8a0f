/**
 * The settings read without zod, for the Vercel functions' start (decision 0045): importing zod (the
 * REST function) and building the environment's schema cost a cold start more than everything else
 * the REST function does before answering `/v1/tailwind`. Each variable is read from its entry
 * (`environment.ts`) by the same function the schema's field runs (`readSetting`), a refused one
 * worded by the same function (`refusal`), and the values interpreted as `readSettings`
 * (`../settings.ts`) interprets them, so both give the same settings, warnings and errors:
 * `tests/unit/plain-settings.test.ts` holds them equal on generated environments.
 */
import { ENVIRONMENT, unknownSettings, type Environment } from './environment.ts';
import { interpret, type Settings } from './interpret.ts';
import { readSetting, REFUSED, refusal, type SettingSpec } from './setting-field.ts';
import { invalidEnvironment } from './settings-error.ts';

/**
 * The settings of `env` as `readSettings` reads them: throws one error listing every refused value;
 * `warn` receives a line per unknown `WOS_*` variable.
 */
export function plainSettings(
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void = () => undefined,
): Settings {
  const values: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [name, entry] of Object.entries<SettingSpec<unknown>>(ENVIRONMENT)) {
    const raw = env[name];
    const value = readSetting(entry, raw);
    if (value === REFUSED) refused.push(refusal(name, entry, raw?.trim() ?? ''));
    else values[name] = value;
  }
  if (refused.length > 0) throw invalidEnvironment(refused);
  for (const line of unknownSettings(env)) warn(`settings: ${line}`);
  return interpret(values as Environment);
}

/** A Vercel function's settings, from this process's environment; unknown `WOS_*` names are warned about. */
export function functionSettings(): Settings {
  return plainSettings(process.env, (line) => console.warn(line));
}
