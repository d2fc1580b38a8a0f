/**
 * How one environment variable becomes a field of the settings schema: the
 * text is trimmed, read by the topic's own reader and replaced by the default
 * when unset or blank, and what the docs say of it is registered on the field
 * itself, so the variable, its schema and its documentation are one entry.
 * Each topic file of this folder declares its variables with {@link settingField}.
 */
import { z } from 'zod';

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

interface SettingSpec<T> extends SettingDoc {
  /** Reads the trimmed, non-empty text; `undefined` for a value it refuses. */
  readonly parse: (text: string) => T | undefined;
  readonly fallback: T;
}

/** Every setting's documentation, registered on its schema. */
export const SETTING_DOCS = z.registry<SettingDoc>();

/**
 * One variable's field of the environment schema: trims the text, parses it
 * and falls back to the default when it is unset or blank. A refused value
 * becomes an issue carrying the text, which `readSettings` words.
 */
export function settingField<T>({ parse, fallback, ...doc }: SettingSpec<T>) {
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

/** The schema type of a field read as `T`. */
export type SettingField<T> = ReturnType<typeof settingField<T>>;
