import { foldName } from '../names.ts';

/** A place query with its optional trailing country qualifier taken off. */
export interface QualifiedQuery {
  readonly name: string;
  /** ISO 3166-1 alpha-2, upper case; null when the query names no country. */
  readonly countryCode: string | null;
}

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

/**
 * Splits "Paris, US" or "London, Canada" into the name and the country code.
 * A last part that is no country ("Paris, Texas") stays in the name, so the
 * whole query is searched as written and finds nothing rather than the wrong
 * Paris.
 */
export function splitQualifier(query: string): QualifiedQuery {
  const comma = query.lastIndexOf(',');
  if (comma <= 0) return { name: query, countryCode: null };
  const name = query.slice(0, comma);
  const qualifier = query.slice(comma + 1).trim();
  if (foldName(name) === '') return { name: query, countryCode: null };
  const code = qualifier.length === 2 ? canonicalCode(qualifier) : null;
  const countryCode = code ?? namesToCodes().get(foldName(qualifier)) ?? null;
  return countryCode === null ? { name: query, countryCode: null } : { name, countryCode };
}
