import { readFileSync } from 'node:fs';
import { readZoneTable, type ZoneTable } from '../../core/zone-table.ts';

/**
 * The zone table the build writes (scripts/data/zone-table.ts, untracked) from
 * the running Node's time-zone data; the bundle step copies it beside the
 * Vercel functions, where this URL, taken from the bundled chunk, finds it.
 */
export const ZONE_TABLE_PATH = new URL('./zones.generated.tsv', import.meta.url);

/**
 * The table at `path`, or undefined when it cannot be used, so `Intl` answers
 * as before: missing (a clone not built yet), unreadable, or made from other
 * time-zone or locale data than this runtime's (`process.versions` `tz`,
 * `icu`, `cldr`: a deployment running another Node than the one that built
 * it), since the table must give exactly what `Intl` gives here. Read
 * synchronously because the clock functions are: it is a few tens of
 * kilobytes, read once per process, on the first clock read.
 */
export function loadZoneTable(path: URL = ZONE_TABLE_PATH): ZoneTable | undefined {
  let table: ZoneTable;
  try {
    table = readZoneTable(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const { tz, icu, cldr } = process.versions;
  const made = table.versions;
  return made.tz === tz && made.icu === icu && made.cldr === cldr ? table : undefined;
}
