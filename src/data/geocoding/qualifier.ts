import { foldName } from '../names.ts';
import { findRegions, regionHasName, type Region } from './regions.ts';

/** Region codes Intl knows that are not countries a place can be in. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);
const ALIASES: Record<string, string> = { usa: 'US', uae: 'AE' };
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const display = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
let countryNames: Map<string, string> | undefined;

/**
 * Folded English country name → code, taken from the runtime's ICU data so no
 * country table has to be shipped. Built once, on the first qualified query.
 */
function namesToCodes(): Map<string, string> {
  if (countryNames !== undefined) return countryNames;
  const names = new Map<string, string>(Object.entries(ALIASES));
  for (const first of LETTERS) {
    for (const second of LETTERS) {
      const code = canonicalCode(first + second);
      const name = code === null ? undefined : display.of(code);
      if (code === null || name === undefined) continue;
      for (const variant of [name, name.replace(/&/g, 'and'), name.replace(/\s*\(.*\)$/, '')]) {
        const key = foldName(variant);
        if (!names.has(key)) names.set(key, code);
      }
    }
  }
  countryNames = names;
  return names;
}

/** "uk" → "GB", "fr" → "FR"; null for anything that is not a country code. */
function canonicalCode(candidate: string): string | null {
  if (!/^[a-z]{2}$/i.test(candidate)) return null;
  const region = new Intl.Locale(`und-${candidate.toUpperCase()}`).region;
  if (region === undefined || NOT_COUNTRIES.has(region) || display.of(region) === undefined) return null;
  return region;
}

/** The country a qualifier names, by ISO code ("FR", "uk") or English name; else null. */
function countryOf(qualifier: string): string | null {
  const trimmed = qualifier.trim();
  const code = trimmed.length === 2 ? canonicalCode(trimmed) : null;
  return code ?? namesToCodes().get(foldName(trimmed)) ?? null;
}

/**
 * A place query with its qualifiers read: the name to look up and where it
 * may lie. A place is in scope when it is in one of `countries` or in one of
 * `regions`; with neither, anywhere.
 */
export interface PlaceQuery {
  readonly name: string;
  readonly countries: readonly string[];
  readonly regions: readonly Region[];
}

/** What a place offers to be matched against a query's regions. */
export interface PlaceWhere {
  readonly countryCode: string;
  /** GeoNames admin1 code (gazetteer). */
  readonly admin1?: string | undefined;
  /** GeoNames id of the first-level region (Open-Meteo `admin1_id`). */
  readonly regionId?: number | undefined;
  /** The first-level region's name (Open-Meteo `admin1`). */
  readonly regionName?: string | undefined;
}

/**
 * Reads "Town", "Town, CC", "Town, Country", "Town, Region" and
 * "Town, Region, CC". A region is a first-level one, by name in a few
 * languages or by ISO 3166-2 code, so "Boulder, CO" and "Boulder, Colorado"
 * both work. A two-letter qualifier that is both a country and a region code
 * ("CO": Colombia and Colorado; "WA": Washington and Western Australia) keeps
 * every reading; the ranking then picks among the places found. A last part
 * that is neither ("Annecy, Haute-Savoie": second-level regions are not
 * known) stays in the name, so nothing wrong is found and the caller can
 * suggest the name before the comma.
 */
export function parsePlaceQuery(query: string): PlaceQuery {
  const whole: PlaceQuery = { name: query, countries: [], regions: [] };
  const comma = query.lastIndexOf(',');
  if (comma <= 0) return whole;
  const rest = query.slice(0, comma);
  const last = query.slice(comma + 1);
  if (foldName(rest) === '' || foldName(last) === '') return whole;
  const country = countryOf(last);
  if (country !== null) {
    const inner = rest.lastIndexOf(',');
    if (inner > 0 && foldName(rest.slice(0, inner)) !== '') {
      const regions = findRegions(rest.slice(inner + 1), country);
      if (regions.length > 0) return { name: rest.slice(0, inner), countries: [], regions };
    }
  }
  const regions = findRegions(last);
  if (country === null && regions.length === 0) return whole;
  return { name: rest, countries: country === null ? [] : [country], regions };
}

/** Whether a place lies where the query's qualifiers say. */
export function inQueryScope(query: PlaceQuery, place: PlaceWhere): boolean {
  if (query.countries.length === 0 && query.regions.length === 0) return true;
  if (query.countries.includes(place.countryCode)) return true;
  const { regionName } = place;
  return query.regions.some(
    (region) =>
      region.countryCode === place.countryCode &&
      ((place.admin1 !== undefined && region.admin1 === place.admin1) ||
        (place.regionId !== undefined && region.geonameId === place.regionId) ||
        (regionName !== undefined && regionHasName(region, regionName))),
  );
}
