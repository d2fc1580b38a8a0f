/**
 * The README's configuration tables, rendered from the settings schema; a
 * unit test compares them with README.md so the two cannot drift.
 */
import { SETTINGS, type SettingGroup, type SettingName } from './settings.ts';

/** One table row: variable, default, meaning. */
export type SettingRow = readonly [name: string, shownDefault: string, description: string];

export function settingRows(group?: SettingGroup): SettingRow[] {
  return (Object.keys(SETTINGS) as SettingName[])
    .filter((name) => group === undefined || SETTINGS[name].group === group)
    .map((name) => [`\`${name}\``, SETTINGS[name].shownDefault, SETTINGS[name].description]);
}

/** A Markdown table of one group (Prettier pads it in the README). */
export function settingsTable(group: SettingGroup): string {
  const rows = settingRows(group).map((row) => `| ${row.join(' | ')} |`);
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
