/**
 * The settings read without zod, for the REST function's start (decision 0045): importing zod and
 * building the environment's schema cost its cold start more than everything else it does before
 * answering `/v1/tailwind`. Each variable is read from its entry (`environment.ts`) by the same
 * function the schema's field runs (`readSetting`), and interpreted as `readSettings` interprets
 * them; an environment with any refused value is not read here at all (`undefined`), so every
 * refusal is still worded by the schema (`readSettings` in `../settings.ts`).
 * `tests/unit/plain-settings.test.ts` holds the two readers equal on generated environments.
 */
import { ENVIRONMENT, unknownSettings, type Environment } from './environment.ts';
import { interpret, type Settings } from './interpret.ts';
import { readSetting, REFUSED, type SettingSpec } from './setting-field.ts';

/**
 * The settings of `env` as `readSettings` reads them, or `undefined` when a value is refused.
 * `warn` receives a line per unknown `WOS_*` variable, as there.
 */
export function plainSettings(
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void = () => undefined,
): Settings | undefined {
  const values: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries<SettingSpec<unknown>>(ENVIRONMENT)) {
    const value = readSetting(entry, env[name]);
    if (value === REFUSED) return undefined;
    values[name] = value;
  }
  for (const line of unknownSettings(env)) warn(`settings: ${line}`);
  return interpret(values as Environment);
}

/**
 * A Vercel function's settings: this process's environment read without zod, or, when a value is
 * refused, by `settingsFromProcess` (`../settings.ts`), which loads the schema and throws the error
 * that words every refusal, as the function always did. Unknown `WOS_*` names are warned about once.
 */
export async function functionSettings(): Promise<Settings> {
  const plain = plainSettings(process.env, (line) => console.warn(line));
  return plain ?? (await import('../settings.ts')).settingsFromProcess();
}
