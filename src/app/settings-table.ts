/**
 * The configuration tables of docs/operating.md, rendered from the settings
 * schema (`SETTINGS` in settings.ts): `npm run docs` writes them, and a unit
 * test (tests/unit/generated-docs.test.ts) fails when the page and the schema
 * differ, so a new variable is documented by its own entry.
 */
import { SETTINGS, settingDoc, type SettingGroup, type SettingName } from './settings.ts';

/** One table row: variable, default, meaning. */
export type SettingRow = readonly [name: string, shownDefault: string, description: string];

/** The title above each group's table, in the order the page shows them. */
export const SETTING_GROUP_TITLES: Readonly<Record<SettingGroup, string>> = {
  server: 'Server and addresses',
  data: 'Forecast, places and segments',
  mcp: "The MCP endpoint's guards",
  riders: 'Rider store, sign-in and alerts',
  payments: 'Payments (all unset: no payments)',
  platform: 'Set by Vercel on its deployments (read, never set by hand)',
};

export function settingRows(group?: SettingGroup): SettingRow[] {
  return (Object.keys(SETTINGS) as SettingName[])
    .map((name) => ({ name, doc: settingDoc(name) }))
    .filter(({ doc }) => group === undefined || doc.group === group)
    .map(({ name, doc }) => [`\`${name}\``, doc.shownDefault, doc.description]);
}

/** A Markdown table of one group (Prettier pads it on the page). */
export function settingsTable(group: SettingGroup): string {
  const rows = settingRows(group).map((row) => `| ${row.join(' | ')} |`);
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** Every group's table under its title: the generated part of the configuration section. */
export function settingsTables(): string {
  return (Object.keys(SETTING_GROUP_TITLES) as SettingGroup[])
    .map((group) => `${SETTING_GROUP_TITLES[group]}:\n\n${settingsTable(group)}`)
    .join('\n\n');
}
