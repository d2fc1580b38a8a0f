/**
 * Build-time zone table (layout and use: src/core/zone-table.ts): every time
 * zone the runtime knows, each with its UTC offset and abbreviation from one
 * change to the next, over a span of years around the build, written to
 * `src/data/time-zone/zones.generated.tsv` (untracked) so the server's first
 * clock reading needs no `Intl`.
 *
 * The answers are the running Node's own: each period's offset and
 * abbreviation are what `localParts` and `zoneAbbreviation`
 * (src/core/local-time.ts) answer through `Intl`, so the table cannot
 * disagree with them about a rule; the file records the `tz`, `icu` and
 * `cldr` versions it was made from and the server uses it only under the
 * same ones (src/data/time-zone/zone-table-file.ts).
 *
 * The zones: every name `Intl.supportedValuesOf('timeZone')` lists (ICU's
 * canonical names, such as Asia/Calcutta), every name
 * `@photostructure/tz-lookup` can answer (IANA's, such as Asia/Kolkata, and
 * the nautical Etc/GMT±N, all 26 of which are held), each one's canonical
 * name, and `UTC`, which `timeZoneAt` answers where it cannot place a point.
 *
 * The span: from 1 January two years before the build year to 1 January
 * eleven years after it, so it holds every forecast (days ahead), alert and
 * stored ride (months back) the service answers about for ten years after
 * the build; it is rebuilt when the year or the runtime's data changes.
 *
 * Run: `npm run data` (`-- --force` rebuilds even when fresh).
 */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { localParts, useZoneTable, zoneAbbreviation } from '../../src/core/local-time.ts';
import { formatZoneTable, readZoneTable, type ZonePeriod } from '../../src/core/zone-table.ts';
import { ZONE_TABLE_PATH } from '../../src/data/time-zone/zone-table-file.ts';
import { freshness, writeWhole } from './generated-file.ts';

/** Years before and after the build year the table covers (see above). */
export const YEARS_BEFORE = 2;
export const YEARS_AFTER = 10;

/** Files whose change must trigger a rebuild: this script, the layout, the rules it records. */
const INPUTS = [
  new URL(import.meta.url),
  new URL('../../src/core/zone-table.ts', import.meta.url),
  new URL('../../src/core/local-time.ts', import.meta.url),
];

const DAY_S = 86_400;

/** The span of a table built at `nowMs`, unix seconds: [1 Jan of year − 2, 1 Jan of year + 11). */
export function tableSpan(nowMs: number): { fromS: number; toS: number } {
  const year = new Date(nowMs).getUTCFullYear();
  return {
    fromS: Date.UTC(year - YEARS_BEFORE, 0, 1) / 1000,
    toS: Date.UTC(year + YEARS_AFTER + 1, 0, 1) / 1000,
  };
}

/** Whether `name` is a zone this runtime's `Intl` accepts. */
function isZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone names `@photostructure/tz-lookup` can answer: the string
 * literals of its module shaped like zone names. The package keeps its names
 * in its source and exports no list; a name this misses is still answered,
 * by `Intl`.
 */
export function tzLookupZones(): string[] {
  const source = readFileSync(createRequire(import.meta.url).resolve('@photostructure/tz-lookup'), 'utf8');
  const names = [...source.matchAll(/"([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)+)"/g)].map((match) => match[1] ?? '');
  return [...new Set(names)].filter(isZone);
}

/** The nautical zones, Etc/GMT-14 (UTC+14) to Etc/GMT+12 (UTC−12) but Etc/GMT itself, whether tz-lookup answers each or not. */
const NAUTICAL = Array.from({ length: 27 }, (_, i) => i - 14)
  .filter((hours) => hours !== 0)
  .map((hours) => `Etc/GMT${hours < 0 ? '' : '+'}${hours}`);

/** Every zone the table holds (see the header). */
export function tableZones(): string[] {
  const named = [...Intl.supportedValuesOf('timeZone'), ...tzLookupZones(), ...NAUTICAL, 'UTC'];
  const canonical = named.map(
    (zone) => new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone,
  );
  return [...new Set([...named, ...canonical])].filter(isZone).sort();
}

/**
 * A zone's periods over the span. Each day is sampled with three cheap
 * formatters (the offset and both short names, everything the answers
 * depend on); where two samples differ, the second of the change is found
 * by bisection. The state of each period is then asked of the real
 * functions, and neighbours in the same state merge (a name change that
 * leaves the answer alone is no change). No zone changes twice within a
 * day, so daily samples see every change.
 */
export function zonePeriods(timeZone: string, fromS: number, toS: number): ZonePeriod[] {
  const formats = [
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' }),
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' }),
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }),
  ];
  // "28/11/2026, GMT+01:00": what follows the date.
  const key = (s: number): string =>
    formats
      .map((format) => {
        const text = format.format(s * 1000);
        return text.slice(text.lastIndexOf(', ') + 2);
      })
      .join('|');
  const starts = [fromS];
  let at = fromS;
  let atKey = key(at);
  while (at < toS - 1) {
    const next = Math.min(at + DAY_S, toS - 1);
    const nextKey = key(next);
    if (nextKey !== atKey) {
      // The first second in (at, next] that reads as `next` does.
      let low = at;
      let high = next;
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (key(middle) === atKey) low = middle;
        else high = middle;
      }
      starts.push(high);
    }
    at = next;
    atKey = nextKey;
  }
  const periods: ZonePeriod[] = [];
  for (const startS of starts) {
    const offsetMinutes = localParts(startS, timeZone).offsetMinutes;
    const abbreviation = zoneAbbreviation(startS, timeZone);
    const last = periods.at(-1);
    if (last?.offsetMinutes === offsetMinutes && last.abbreviation === abbreviation) continue;
    periods.push({ startS, offsetMinutes, abbreviation });
  }
  return periods;
}

/** The table's text for a build at `nowMs`, from this runtime's `Intl` alone. */
export function zoneTableText(nowMs: number = Date.now()): string {
  const { fromS, toS } = tableSpan(nowMs);
  // The periods must come from `Intl`, not from a table already in use.
  const previous = useZoneTable(undefined);
  try {
    const zones = new Map(tableZones().map((zone) => [zone, zonePeriods(zone, fromS, toS)] as const));
    const { tz = '', icu = '', cldr = '' } = process.versions;
    return formatZoneTable({ versions: { tz, icu, cldr }, fromS, toS, zones });
  } finally {
    useZoneTable(previous);
  }
}

/** Whether the table on disk was made by this runtime's data, for this year's span. */
async function tableFitsRuntime(): Promise<boolean> {
  try {
    const table = readZoneTable(await readFile(ZONE_TABLE_PATH, 'utf8'));
    const { tz, icu, cldr } = process.versions;
    return (
      table.versions.tz === tz &&
      table.versions.icu === icu &&
      table.versions.cldr === cldr &&
      table.fromS === tableSpan(Date.now()).fromS
    );
  } catch {
    return false;
  }
}

/**
 * Makes sure the zone table exists, is newer than its inputs and fits the
 * running Node and year (a few ms when fresh, a few seconds to rebuild);
 * returns its path.
 */
export async function ensureZoneTable(options: { force?: boolean; log?: boolean } = {}): Promise<string> {
  const path = fileURLToPath(ZONE_TABLE_PATH);
  const fresh = (await freshness(ZONE_TABLE_PATH, INPUTS)).fresh && (await tableFitsRuntime());
  if (fresh && options.force !== true) {
    if (options.log === true) console.log(`zones: up to date → ${path}`);
    return path;
  }
  const started = performance.now();
  const text = zoneTableText();
  await writeWhole(path, text);
  if (options.log === true) {
    const bytes = Buffer.byteLength(text);
    const kilobytes = (count: number) => (count / 1e3).toFixed(1);
    const ms = (performance.now() - started).toFixed(0);
    console.log(
      `zones: ${kilobytes(bytes)} kB (${kilobytes(gzipSync(text).length)} kB gzip) in ${ms} ms → ${path}`,
    );
  }
  return path;
}

if (import.meta.main) {
  await ensureZoneTable({ force: process.argv.includes('--force'), log: true });
}
