/**
 * One environment variable's entry: what the docs say of it, how its text is read and its default,
 * declared once in its topic's table (each file of this folder). The zod schema of the whole
 * environment is built from these entries (`setting-schema.ts`, `EnvironmentSchema` in
 * `../settings.ts`), and so is the REST function's reader that starts without zod
 * (`plain-settings.ts`, decision 0045): both read a value with {@link readSetting}.
 */

/** The table of docs/operating.md a setting is listed in. */
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

/** A variable's entry: its documentation, its reader and its default. */
export interface SettingSpec<T> extends SettingDoc {
  /** Reads the trimmed, non-empty text; `undefined` for a value it refuses. */
  readonly parse: (text: string) => T | undefined;
  readonly fallback: T;
}

/** A topic's variables by name. */
export type SettingTable = Readonly<Record<string, SettingSpec<unknown>>>;

/** Each variable's value as read, by name: the type follows each entry of a table. */
export type SettingValues<Table> = {
  -readonly [Name in keyof Table]: Table[Name] extends SettingSpec<infer T> ? T : never;
};

/** Declares an entry, its value's type inferred from the reader and default (or given). */
export const setting = <T>(spec: SettingSpec<T>): SettingSpec<T> => spec;

/** What {@link readSetting} answers for text the entry's reader refuses. */
export const REFUSED: unique symbol = Symbol('refused');

/**
 * A variable's value: the text trimmed, read by the entry's reader, the default when it is unset or
 * blank, {@link REFUSED} when the reader refuses it.
 */
export function readSetting<T>(
  { parse, fallback }: SettingSpec<T>,
  raw: string | undefined,
): T | typeof REFUSED {
  const text = raw?.trim();
  if (!text) return fallback;
  const value = parse(text);
  return value === undefined ? REFUSED : value;
}

/** The one message for a refused value: the variable, the value (unless secret) and the accepted form. */
export function refusal(name: string, { secret, accepts }: SettingDoc, text: string): string {
  const shown = secret ? `the ${text.length}-character value given` : `"${text}"`;
  return `${name} must be ${accepts}, not ${shown}.`;
}
