import { readFile } from 'node:fs/promises';
import { foldName } from '../names.ts';
import { boundedEditDistance } from './edit-distance.ts';
import { createFuzzyKeys, type NearKey } from './fuzzy-keys.ts';
import {
  formatGazetteer,
  readGazetteer,
  type GazetteerIndex,
  type GazetteerRow,
  type IndexedPlace,
} from './gazetteer-format.ts';
import { inQueryScope, parsePlaceQuery, type PlaceQuery } from './qualifier.ts';
import { regionOf } from './regions.ts';
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

/**
 * An island or cycling region named like a town ranks before every town of
 * fewer people than this: "Flanders" is the Belgian region, not Flanders,
 * New Jersey (12,000 people); "Tenerife" the island, not the Colombian
 * town. A city this large with exactly that name keeps its place: it is
 * what most people mean.
 */
export const AREA_OUTRANKS_TOWNS_BELOW = 100_000;

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
 * narrowed by a country and/or first-level region qualifier and ranked (see
 * `rankMatches`); typo suggestions by a capped edit distance.
 */
function gazetteerGeocoder(index: GazetteerIndex): Geocoder {
  let fuzzy: ((query: string, max: number) => NearKey[]) | undefined;
  const label = (place: Place) => `${place.name}, ${place.countryCode}`;
  const inScope = (query: PlaceQuery) => (place: IndexedPlace) => inQueryScope(query, place);

  return {
    id: 'gazetteer',
    async search(query, limit) {
      const parsed = parsePlaceQuery(query);
      const folded = foldName(parsed.name);
      if (folded === '' || !(limit >= 1)) return [];
      const wanted = inScope(parsed);
      const found = index.lookup(folded);
      const ranked = rankMatches(found.map((i) => index.place(i)).filter(wanted), folded);
      if (ranked.length < limit) {
        const seen = new Set(found);
        const more = new Set(articleVariants(folded).flatMap((key) => index.lookup(key)));
        const extra = [...more].filter((i) => !seen.has(i)).sort((a, b) => a - b);
        ranked.push(...rankMatches(extra.map((i) => index.place(i)).filter(wanted), null));
      }
      return countryReadingFirst(parsed, ranked).slice(0, limit).map(presentPlace);
    },
    async suggest(query, limit) {
      const parsed = parsePlaceQuery(query);
      const folded = foldName(parsed.name);
      if (folded === '' || !(limit >= 1)) return [];
      fuzzy ??= createFuzzyKeys(index.allKeys());
      const near = fuzzy(folded, folded.length <= 5 ? 1 : folded.length <= 10 ? 2 : 3);
      // "Annecy, Haute-Savoie": the part before a qualifier that is not understood is worth offering as it is.
      const comma = parsed.name.lastIndexOf(',');
      if (comma > 0) near.push({ key: foldName(parsed.name.slice(0, comma)), distance: 0 });
      const best = new Map<number, number>();
      for (const { key, distance } of near) {
        for (const i of index.lookup(key)) if (distance < (best.get(i) ?? Infinity)) best.set(i, distance);
      }
      const order = [...best].sort(([a, da], [b, db]) => da - db || a - b).map(([i]) => index.place(i));
      const inside = order.filter(inScope(parsed));
      // A qualifier that rules every match out: offer the exact name elsewhere too.
      const qualified = parsed.countries.length > 0 || parsed.regions.length > 0;
      const elsewhere = qualified ? index.lookup(folded).map((i) => index.place(i)) : [];
      return [...new Set([...inside, ...elsewhere].map(label))].slice(0, limit);
    },
  };
}

/**
 * Orders the places a key found, best first. Towns come in three tiers, each
 * by population: the key is the town's name; the key is an alternate name
 * that is a spelling of it ("Calpe" for Calp, "Munich" for München); the key
 * is some other alternate name (a historic or foreign one: "Calpe" is also
 * an ancient name of Gibraltar). Islands and regions go before every town
 * but one of that very name with AREA_OUTRANKS_TOWNS_BELOW people or more.
 * `folded` null: every match is by name variant (leading article), so only
 * population counts.
 */
function rankMatches(matches: readonly IndexedPlace[], folded: string | null): IndexedPlace[] {
  const tier = (place: IndexedPlace) => {
    if (folded === null) return 0;
    const name = foldName(place.name);
    if (name === folded) return 0;
    const allowed = folded.length <= 5 ? 1 : 2;
    return boundedEditDistance(folded, name, allowed) <= allowed ? 1 : 2;
  };
  const towns = matches.filter((place) => place.kind === 'town');
  const areas = matches.filter((place) => place.kind !== 'town');
  // Stable sort: places within a tier keep the file's population order.
  const ranked = towns.map((place) => ({ place, tier: tier(place) })).sort((a, b) => a.tier - b.tier);
  if (areas.length === 0) return ranked.map(({ place }) => place);
  // Only a large town of exactly that name keeps its place ahead: Santa Cruz de Tenerife, found by
  // its alternate name "Tenerife", does not.
  const keeps = ({ place, tier }: { place: IndexedPlace; tier: number }) =>
    tier === 0 && (place.population ?? 0) >= AREA_OUTRANKS_TOWNS_BELOW;
  const ahead = ranked.filter(keeps).map(({ place }) => place);
  const behind = ranked.filter((entry) => !keeps(entry)).map(({ place }) => place);
  return [...ahead, ...areas, ...behind];
}

/**
 * "Paris, US" or "London, CA": a code that is both a country and a region
 * ("US" is also a Czech region, "CA" California) means the country first;
 * the region's places follow as alternatives. Stable, so each part keeps
 * its ranking.
 */
function countryReadingFirst(query: PlaceQuery, ranked: readonly IndexedPlace[]): IndexedPlace[] {
  if (query.countries.length === 0 || query.regions.length === 0) return [...ranked];
  const inCountry = (place: IndexedPlace) => query.countries.includes(place.countryCode);
  return [...ranked.filter(inCountry), ...ranked.filter((place) => !inCountry(place))];
}

/** What a caller sees of a gazetteer place: the region by name, not GeoNames' code. */
function presentPlace(place: IndexedPlace): Place {
  const { admin1, kind, radiusM, ...rest } = place;
  const region = regionOf(place.countryCode, admin1)?.name;
  const named = region === undefined ? rest : { ...rest, region };
  return kind === 'town' ? named : { ...named, kind, radiusM: radiusM ?? null };
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
  const loading = readFile(path)
    .then((bytes) => gazetteerGeocoder(readGazetteer(bytes)))
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
