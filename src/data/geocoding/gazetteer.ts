import { readFile } from 'node:fs/promises';
import { foldName } from '../names.ts';
import { createFuzzyKeys, type NearKey } from './fuzzy-keys.ts';
import {
  formatGazetteer,
  readGazetteer,
  type GazetteerIndex,
  type GazetteerRow,
} from './gazetteer-format.ts';
import { splitQualifier } from './qualifier.ts';
import { GeocodingError, type Geocoder, type Place } from './types.ts';

export type { GazetteerRow } from './gazetteer-format.ts';

/**
 * Leading articles a query may leave out ("Bourg-d'Oisans" for "Le
 * Bourg-d'Oisans", "Hague" for "The Hague") or add ("La Paris"): English,
 * French, Italian, Spanish, Portuguese, German and Dutch ('s and 't as in
 * 's-Hertogenbosch). Kept short: these matches only fill up after exact ones.
 */
export const LEADING_ARTICLES: readonly string[] =
  'the le la les l el il lo los las gli de den der die das het s t o a os as'.split(' ');

/** Folds a place's names into a row, for places that do not come from the file (segments). */
export function gazetteerRow(place: Place, alternateNames: readonly string[] = []): GazetteerRow {
  const keys = [...new Set([place.name, ...alternateNames].map(foldName))].filter((key) => key !== '');
  return { ...place, keys };
}

/** An in-memory gazetteer over the given rows (segments, tests), searched like the file. */
export function createGazetteer(rows: readonly GazetteerRow[]): Geocoder {
  return gazetteerGeocoder(readGazetteer(formatGazetteer(rows)));
}

/**
 * The offline geocoder: exact lookups of folded names and alternate names,
 * ranked by population; typo suggestions by a capped edit distance.
 */
function gazetteerGeocoder(index: GazetteerIndex): Geocoder {
  let fuzzy: ((query: string, max: number) => NearKey[]) | undefined;
  const label = (place: Place) => `${place.name}, ${place.countryCode}`;
  const inCountry = (countryCode: string | null) => (place: Place) =>
    countryCode === null || place.countryCode === countryCode;

  return {
    id: 'gazetteer',
    async search(query, limit) {
      const { name, countryCode } = splitQualifier(query);
      const folded = foldName(name);
      if (folded === '' || !(limit >= 1)) return [];
      const wanted = inCountry(countryCode);
      const found = index.lookup(folded);
      const matches = found.map((i) => index.place(i)).filter(wanted);
      const isName = (place: Place) => foldName(place.name) === folded;
      const ranked = [...matches.filter(isName), ...matches.filter((place) => !isName(place))];
      if (ranked.length < limit) {
        const seen = new Set(found);
        const more = new Set(articleVariants(folded).flatMap((key) => index.lookup(key)));
        const extra = [...more].filter((i) => !seen.has(i)).sort((a, b) => a - b);
        ranked.push(...extra.map((i) => index.place(i)).filter(wanted));
      }
      return ranked.slice(0, limit);
    },
    async suggest(query, limit) {
      const { name, countryCode } = splitQualifier(query);
      const folded = foldName(name);
      if (folded === '' || !(limit >= 1)) return [];
      fuzzy ??= createFuzzyKeys(index.allKeys());
      const near = fuzzy(folded, folded.length <= 5 ? 1 : folded.length <= 10 ? 2 : 3);
      // "Paris, Texas": the part before a qualifier that is no country is worth offering as it is.
      const comma = name.lastIndexOf(',');
      if (comma > 0) near.push({ key: foldName(name.slice(0, comma)), distance: 0 });
      const best = new Map<number, number>();
      for (const { key, distance } of near) {
        for (const i of index.lookup(key)) if (distance < (best.get(i) ?? Infinity)) best.set(i, distance);
      }
      const order = [...best].sort(([a, da], [b, db]) => da - db || a - b).map(([i]) => index.place(i));
      const inside = order.filter(inCountry(countryCode));
      // "Boulder, CO" means Colombia (ISO), not Colorado: offer the exact name elsewhere too.
      const elsewhere = countryCode === null ? [] : index.lookup(folded).map((i) => index.place(i));
      return [...new Set([...inside, ...elsewhere].map(label))].slice(0, limit);
    },
  };
}

/** "bourg d oisans" → "le bourg d oisans", …; "the hague" → "hague". */
function articleVariants(folded: string): string[] {
  const variants = LEADING_ARTICLES.map((article) => `${article} ${folded}`);
  const space = folded.indexOf(' ');
  if (space > 0 && LEADING_ARTICLES.includes(folded.slice(0, space))) variants.push(folded.slice(space + 1));
  return variants;
}

/** Where `scripts/data/gazetteer.ts` writes the trimmed GeoNames file. */
export const GAZETTEER_PATH = new URL('./gazetteer.generated.tsv', import.meta.url);
const loaded = new Map<string, Promise<Geocoder>>();

/**
 * Reads the generated gazetteer once per path and keeps it for the life of
 * the process. A failed read is not cached, so a later call can succeed.
 */
export function loadGazetteer(path: string | URL = GAZETTEER_PATH): Promise<Geocoder> {
  const cacheKey = String(path);
  const cached = loaded.get(cacheKey);
  if (cached !== undefined) return cached;
  const loading = readFile(path, 'utf8')
    .then((text) => gazetteerGeocoder(readGazetteer(text)))
    .catch((error: unknown) => {
      loaded.delete(cacheKey);
      throw new GeocodingError(
        'unavailable',
        'The offline place list is not available on this server, so place names cannot be looked up; pass latitude and longitude instead.',
        { cause: error },
      );
    });
  loaded.set(cacheKey, loading);
  return loading;
}

/**
 * A gazetteer geocoder usable at once that reads the file on its first query,
 * so starting the server, or a cold start that never geocodes, skips the load.
 */
export function lazyGazetteer(path: string | URL = GAZETTEER_PATH): Geocoder {
  return {
    id: 'gazetteer',
    search: async (query, limit) => (await loadGazetteer(path)).search(query, limit),
    suggest: async (query, limit) => (await loadGazetteer(path)).suggest(query, limit),
  };
}
