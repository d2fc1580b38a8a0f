import { parsePlaceQuery, type PlaceQuery } from '../data/geocoding/qualifier.ts';
import { foldName } from '../data/names.ts';
import type { Segment, SegmentCatalog } from '../data/segments/types.ts';

/**
 * Words riders put before a pass's name, or leave out ("Passo Giau" for
 * "Passo di Giau", "Envalira" for "Port d'Envalira"), folded, longest first
 * so "col de la" is stripped before "col". French, Catalan, Spanish,
 * Italian, German and English.
 */
export const PASS_PREFIXES: readonly string[] = [
  'col de la',
  'col des',
  'col du',
  'col de',
  'col d',
  'col',
  'coll de',
  'coll d',
  'coll',
  'port de',
  'port d',
  'port',
  'puerto de',
  'puerto del',
  'puerto',
  'alto de la',
  'alto del',
  'alto de',
  'alto',
  'passo dello',
  'passo della',
  'passo del',
  'passo di',
  'passo',
  'colle del',
  'colle di',
  'colle',
  'pass',
];
/** Words after a pass's name: "Stelvio Pass", "Gavia Pass", "Stilfser Joch". */
export const PASS_SUFFIXES: readonly string[] = ['pass', 'joch'];

/** A segment a place name means, and whether the name matched as typed or only with its pass word changed. */
export interface SegmentByName {
  readonly segment: Segment;
  /** True when the typed name (without its qualifier) is the segment's name or an alias. */
  readonly exact: boolean;
  /**
   * True when the name is the segment's top, not the segment: "Port
   * d'Envalira" (or "Envalira") names the pass at the top of "Port d'Envalira
   * from Andorra la Vella", not the town at its foot. A name found as the
   * whole climb ("Alpe d'Huez" for "Alpe d'Huez (from Le Bourg-d'Oisans)")
   * is not.
   */
  readonly namesTop: boolean;
}

/** The pass's own name in a folded query: "passo giau" → "giau", "stelvio pass" → "stelvio"; null when none. */
export function passCore(folded: string): string | null {
  for (const prefix of PASS_PREFIXES) {
    if (folded.startsWith(`${prefix} `)) return folded.slice(prefix.length + 1);
  }
  for (const suffix of PASS_SUFFIXES) {
    if (folded.endsWith(` ${suffix}`)) return folded.slice(0, -suffix.length - 1);
  }
  return null;
}

/**
 * The names a pass query may be listed under, most literal first: the query,
 * then its core ("giau"), then the core behind each pass word ("passo di
 * giau", "port d envalira"). A few dozen exact lookups, each a map get or a
 * binary search, so a name the catalog spells otherwise is still found
 * without a fuzzy scan that could land on an unrelated segment.
 */
function spellings(name: string): string[] {
  const folded = foldName(name);
  if (folded === '') return [];
  const core = passCore(folded) ?? folded;
  const variants = [core, ...PASS_PREFIXES.map((prefix) => `${prefix} ${core}`)];
  variants.push(...PASS_SUFFIXES.map((suffix) => `${core} ${suffix}`));
  return [folded, ...variants.filter((variant) => variant !== folded)];
}

/**
 * Whether a segment lies where the query's qualifier says. Segments carry a
 * country but no first-level region, so "Stelvio, Lombardy" is read as
 * "in Italy": coarse, but a qualifier never hides the segment it names.
 */
function inScope(query: PlaceQuery, segment: Segment): boolean {
  if (query.countries.length === 0 && query.regions.length === 0) return true;
  return (
    query.countries.includes(segment.countryCode) ||
    query.regions.some((region) => region.countryCode === segment.countryCode)
  );
}

/**
 * The catalog segment a place name means, if any: by its name or an alias
 * as typed ("Col d'Ordino", a climb discovered from OpenStreetMap, carries
 * its pass's name as an alias), then with a country or first-level region
 * qualifier read off ("Tourmalet, FR"), then with the pass word changed or
 * left out ("Stelvio Pass", "Envalira"). The live catalog of online
 * discovery finds only the segments of the areas it has loaded.
 */
export function findSegmentByName(query: string, catalog: SegmentCatalog): SegmentByName | null {
  const parsed = parsePlaceQuery(query);
  const qualified = parsed.name !== query;
  const names = qualified ? [query, parsed.name] : [query];
  for (const [n, name] of names.entries()) {
    const wanted = (segment: Segment) => n === 0 || inScope(parsed, segment);
    for (const [i, spelling] of spellings(name).entries()) {
      const segment = catalog.findByName(spelling).find(wanted);
      if (segment === undefined) continue;
      const [top, foot] = segment.name.split(' from ');
      return { segment, exact: i === 0, namesTop: foot !== undefined && foldName(top ?? '') === spelling };
    }
  }
  return null;
}
