/**
 * The zod schema of a table of settings (`setting-field.ts`): one field per variable that reads its
 * text as the entry says ({@link readSetting}) and carries the entry's documentation in
 * {@link SETTING_DOCS}, so the environment's schema, its docs tables and its refusals come from the
 * entries the topics declare.
 */
import { z } from 'zod';
import {
  readSetting,
  REFUSED,
  type SettingDoc,
  type SettingSpec,
  type SettingTable,
} from './setting-field.ts';

/** Every setting's documentation, registered on its schema. */
export const SETTING_DOCS = z.registry<SettingDoc>();

/**
 * One variable's field of the environment schema: trims the text, parses it
 * and falls back to the default when it is unset or blank. A refused value
 * becomes an issue carrying the text, which `readSettings` words.
 */
function settingField<T>(entry: SettingSpec<T>) {
  const doc: SettingDoc = {
    group: entry.group,
    shownDefault: entry.shownDefault,
    description: entry.description,
    accepts: entry.accepts,
    ...(entry.secret === undefined ? {} : { secret: entry.secret }),
  };
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const value = readSetting(entry, raw);
      if (value !== REFUSED) return value;
      ctx.addIssue({ code: 'custom', message: 'refused', params: { text: raw?.trim() } });
      return z.NEVER;
    })
    .register(SETTING_DOCS, doc);
}

/** The schema of a table: its variables' fields, in the table's order. */
export function settingsSchema<Table extends SettingTable>(table: Table) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, entry] of Object.entries(table)) shape[name] = settingField(entry);
  return z.object(shape as Record<keyof Table & string, z.ZodType>);
}
