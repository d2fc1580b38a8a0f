import { foldName } from '../names.ts';
import { ADMIN1_TABLE } from './admin1-table.ts';

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
  /** Folded names and codes the region is found by. */
  readonly keys: readonly string[];
}

interface RegionIndex {
  readonly byKey: Map<string, Region[]>;
  readonly byAdmin1: Map<string, Region>;
}

let index: RegionIndex | undefined;

/**
 * Parses the region table on first use (about 4,000 rows, a few ms: the
 * names come folded), so a server that is never asked for "Town, Region"
 * never pays for it.
 */
function regionIndex(): RegionIndex {
  if (index !== undefined) return index;
  const byKey = new Map<string, Region[]>();
  const byAdmin1 = new Map<string, Region>();
  for (const line of ADMIN1_TABLE.split('\n')) {
    const [countryCode = '', admin1 = '', isoCode = '', id = '', name = '', , folded = ''] = line.split('\t');
    if (countryCode === '' || admin1 === '') continue;
    const keys = new Set(folded.split('|'));
    // Codes count only when they are letters: "CO" is typed, GeoNames' "56" is not.
    for (const code of [isoCode, admin1]) if (/^[A-Z]{2,3}$/i.test(code)) keys.add(code.toLowerCase());
    // "US-CO" as foldName reads it, without paying for foldName 4,000 times.
    keys.add(`${countryCode} ${isoCode}`.toLowerCase());
    keys.delete('');
    const region: Region = {
      countryCode,
      admin1,
      isoCode,
      geonameId: id === '' ? null : Number(id),
      name,
      keys: [...keys],
    };
    byAdmin1.set(`${countryCode}.${admin1}`, region);
    for (const key of keys) {
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [region]);
      else list.push(region);
    }
  }
  index = { byKey, byAdmin1 };
  return index;
}

/**
 * The regions a qualifier may mean: by name in any of its languages
 * ("Catalonia", "Cataluña"), by ISO 3166-2 code ("CO", "VIC", "US-CO"), in
 * any country unless one is given. "CO" is Colorado and also a Colombian
 * code, so this returns every reading and the caller keeps them all.
 */
export function findRegions(qualifier: string, countryCode: string | null = null): readonly Region[] {
  const found = regionIndex().byKey.get(foldName(qualifier)) ?? [];
  return countryCode === null ? found : found.filter((region) => region.countryCode === countryCode);
}

/** The region a GeoNames place's admin1 code names, if the table holds it. */
export function regionOf(countryCode: string, admin1: string): Region | undefined {
  return admin1 === '' ? undefined : regionIndex().byAdmin1.get(`${countryCode}.${admin1}`);
}
