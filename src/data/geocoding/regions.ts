import { readFileSync } from 'node:fs';
import { foldName } from '../names.ts';
import { parseRegionIndex } from './region-index.ts';

/**
 * Where `scripts/data/regions.ts` writes the region index (generated at build time from the
 * committed `admin1-regions.tsv`; the Vercel bundle step copies it beside the function bundles).
 */
export const REGION_INDEX_PATH = new URL('./regions.generated.tsv', import.meta.url);

/** A first-level region of a country (US state, Spanish autonomous community, French région…). */
export interface Region {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countryCode: string;
  /** GeoNames admin1 code, as on each GeoNames place ("CO", "56"). */
  readonly admin1: string;
  /** ISO 3166-2 subdivision code after the dash ("CO", "CT", "VIC"). */
  readonly isoCode: string;
  /** GeoNames feature id of the region, or null; Open-Meteo answers carry it as `admin1_id`. */
  readonly geonameId: number | null;
  /** The GeoNames name, shown to riders. */
  readonly name: string;
  /** Other names, in English, Spanish, French, German, Italian and a few local languages. */
  readonly otherNames: readonly string[];
}

interface Table {
  readonly regions: readonly string[];
  readonly keys: readonly string[];
  readonly parsed: Map<number, Region>;
}

let table: Table | undefined;

/**
 * Reads the index (0.64 MB) and splits it into lines on the first query that
 * names a region or needs one's name, not at start-up: a public call by
 * coordinates never pays for it. Lookups are binary searches, and only the
 * regions a query touches are parsed. Read synchronously: the lookups are
 * synchronous and the read takes about a millisecond.
 */
function regionTable(): Table {
  if (table === undefined) {
    let text: string;
    try {
      text = readFileSync(REGION_INDEX_PATH, 'utf8');
    } catch (error) {
      throw new Error(
        `The region index is not available on this server (${String(error)}); build it with \`npm run data\`.`,
        { cause: error },
      );
    }
    table = { ...parseRegionIndex(text), parsed: new Map() };
  }
  return table;
}

/**
 * Loads the region index from another file than the one beside this module: for the site build,
 * whose bundled copy of this module sits away from `src/data` (as the MCP page's examples load the
 * gazetteer by its project path). A later lookup uses it instead of reading its own file.
 */
export function loadRegionIndexFrom(path: string | URL): void {
  table = { ...parseRegionIndex(readFileSync(path, 'utf8')), parsed: new Map() };
}

function regionAt(line: number): Region | undefined {
  const { regions, parsed } = regionTable();
  const cached = parsed.get(line);
  if (cached !== undefined) return cached;
  const text = regions[line];
  if (text === undefined) return undefined;
  const [countryCode = '', admin1 = '', isoCode = '', id = '', name = '', others = ''] = text.split('\t');
  const region: Region = {
    countryCode,
    admin1,
    isoCode,
    geonameId: id === '' ? null : Number(id),
    name,
    otherNames: others === '' ? [] : others.split('|'),
  };
  parsed.set(line, region);
  return region;
}

/** Index of the first line at or after `wanted` in sorted `lines`, comparing the part before a tab. */
function lowerBound(lines: readonly string[], wanted: string, head: (line: string) => string): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (head(lines[middle] ?? '') < wanted) low = middle + 1;
    else high = middle;
  }
  return low;
}

const beforeTab = (line: string) => line.slice(0, line.indexOf('\t'));

/**
 * The regions a qualifier may mean: by name in any of its languages
 * ("Catalonia", "Cataluña", "Catalunya"), by ISO 3166-2 code ("CO", "VIC",
 * "US-CO"), in any country unless one is given. "CO" is Colorado and also a
 * Colombian code, so this returns every reading and the caller keeps them all.
 */
export function findRegions(qualifier: string, countryCode: string | null = null): readonly Region[] {
  const key = foldName(qualifier);
  if (key === '') return [];
  const { keys } = regionTable();
  const line = keys[lowerBound(keys, key, beforeTab)];
  if (line === undefined || beforeTab(line) !== key) return [];
  const found = line
    .slice(key.length + 1)
    .split(',')
    .flatMap((index) => regionAt(Number(index)) ?? []);
  return countryCode === null ? found : found.filter((region) => region.countryCode === countryCode);
}

/** The region a GeoNames place's admin1 code names, if the table holds it. */
export function regionOf(countryCode: string, admin1: string): Region | undefined {
  if (admin1 === '') return undefined;
  const { regions } = regionTable();
  const wanted = `${countryCode}\t${admin1}`;
  const headOf = (line: string) => line.slice(0, line.indexOf('\t', 3));
  const index = lowerBound(regions, wanted, headOf);
  return headOf(regions[index] ?? '') === wanted ? regionAt(index) : undefined;
}

/** Whether a folded region name or code is one of the region's keys (Open-Meteo's `admin1` names). */
export function regionHasName(region: Region, name: string): boolean {
  const folded = foldName(name);
  return findRegions(folded).includes(region) || foldName(region.name) === folded;
}
