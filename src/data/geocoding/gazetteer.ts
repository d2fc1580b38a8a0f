import { Buffer } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { greatCircleM } from '../../core/distance.ts';
import { foldName } from '../names.ts';
import { createFuzzyKeys, type NearKey } from './fuzzy-keys.ts';
import {
  formatGazetteer,
  readGazetteer,
  type GazetteerIndex,
  type GazetteerRow,
  type IndexedPlace,
} from './gazetteer-format.ts';
import { AREAS } from './areas.ts';
import { findLake } from './lakes.ts';
import { NAME_WEIGHTS, nameWeight } from './name-weight.ts';
import { inQueryScope, parsePlaceQuery, type PlaceQuery } from './qualifier.ts';
import { spelledOut } from './spelled-out.ts';
import { regionOf } from './regions.ts';
import { GeocodingError, type Geocoder, type Place } from './types.ts';

export type { GazetteerRow } from './gazetteer-format.ts';
export { NAME_WEIGHTS } from './name-weight.ts';

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
  const names = [place.name, ...alternateNames];
  const spelled = names.map(spelledOut).filter((name) => name !== null);
  const keys = [...new Set([...names, ...spelled].map(foldName))].filter((key) => key !== '');
  return { ...place, names: alternateNames.length, keys };
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
      const lake = ranked.some(({ place }) => place.kind !== 'town')
        ? null
        : findLake(index, parsed.name, wanted);
      if (lake !== null && wanted(lake.place)) {
        const at = ranked.findIndex((entry) => !entry.holds && entry.score <= lake.score);
        ranked.splice(at === -1 ? ranked.length : at, 0, { ...lake, own: false, holds: false });
      }
      const ordered = countryReadingFirst(parsed, ranked);
      const first = ordered[0]?.place;
      // A region: which part is meant is the question, so its largest towns follow the places of its name.
      const listed =
        first?.kind === 'region'
          ? [...ordered.map(({ place }) => place), ...regionParts(index, first)]
          : ordered.map(({ place }) => place);
      const places = [...new Set(listed)].slice(0, limit).map(presentPlace);
      const [best, ...others] = places;
      return best !== undefined && (first?.kind === 'region' || hasRival(ordered))
        ? [{ ...best, ambiguous: true }, ...others]
        : places;
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
 * A town whose own name is the query and that has at least this many people
 * keeps first place whatever larger place is also known by that name: the
 * score rule is for small namesakes ("Gerona", 41,000 people in the
 * Philippines), while Valence (64,000, France) stays Valence although
 * Valencia is called "Valence" in French.
 */
export const OWN_NAME_HOLDS_FROM = 50_000;

/**
 * The first answer is flagged ambiguous when another place of that name,
 * this far away or more, scores at least a third of it (Valencia in
 * Venezuela and in Spain; Cambridge in England, Ontario and Massachusetts),
 * or when it won by another of its names over a town whose own name the
 * query is ("Tirano" is Tirana's name in some languages, and a town at the
 * foot of the Mortirolo): the data cannot tell a common exonym from a rare
 * one, so the caller is told to check.
 */
export const AMBIGUOUS_SCORE_SHARE = 1 / 3;
/** A place closer than this to the first is the same place listed twice, not a rival. */
export const AMBIGUOUS_APART_KM = 25;

/** One candidate with what ranking it needs. */
interface Scored {
  readonly place: IndexedPlace;
  /** Population times the name weight. */
  readonly score: number;
  /** The query is its own name. */
  readonly own: boolean;
  /** Its own name is the query and it is at least OWN_NAME_HOLDS_FROM people. */
  readonly holds: boolean;
}

function scoreTown(place: IndexedPlace, folded: string | null): Scored {
  // `folded` null: every match is by a name variant (leading article), so only population counts.
  const weight = folded === null ? NAME_WEIGHTS.own : nameWeight(place, folded);
  const population = place.population ?? 0;
  const own = folded !== null && weight === NAME_WEIGHTS.own;
  return { place, score: population * weight, own, holds: own && population >= OWN_NAME_HOLDS_FROM };
}

/** Larger towns that hold their name first, then by score; stable, so ties keep the file's population order. */
function byRank(a: Scored, b: Scored): number {
  if (a.holds !== b.holds) return a.holds ? -1 : 1;
  if (a.holds) return (b.place.population ?? 0) - (a.place.population ?? 0);
  return b.score - a.score;
}

/**
 * Orders the places a key found, best first: towns by byRank, so a name
 * commonly meaning a large city ("Cologne", "Bruges") beats a small town
 * whose own name it is. Islands and regions go before every town but one of
 * that very name with AREA_OUTRANKS_TOWNS_BELOW people or more.
 */
function rankMatches(matches: readonly IndexedPlace[], folded: string | null): Scored[] {
  const towns = matches.filter((place) => place.kind === 'town');
  const firstLevel = matches.filter(isFirstLevelRegion);
  const areas = matches.filter((place) => place.kind !== 'town' && !isFirstLevelRegion(place));
  const ranked = towns.map((place) => scoreTown(place, folded)).sort(byRank);
  if (areas.length === 0 && firstLevel.length === 0) return ranked;
  // Only a large town of exactly that name keeps its place ahead: Santa Cruz de Tenerife, found by
  // its alternate name "Tenerife", does not.
  const keeps = ({ place, own }: Scored) => own && (place.population ?? 0) >= AREA_OUTRANKS_TOWNS_BELOW;
  // Before a first-level region also: a town holding its name, one of that name in the region itself,
  // or a city that large by another of its names ("Hanover" is Hannover before the Jamaican parish).
  const keepsBeforeRegion = (entry: Scored) =>
    entry.score >= AREA_OUTRANKS_TOWNS_BELOW ||
    (entry.own &&
      ((entry.place.population ?? 0) >= OWN_NAME_HOLDS_FROM ||
        firstLevel.some(
          (r) => r.countryCode === entry.place.countryCode && r.admin1 === entry.place.admin1,
        )));
  const asArea = (place: IndexedPlace): Scored => ({ place, score: Infinity, own: true, holds: true });
  const rest = ranked.filter((entry) => !keeps(entry));
  return [
    ...ranked.filter(keeps),
    ...areas.map(asArea),
    ...rest.filter(keepsBeforeRegion),
    ...firstLevel.map(asArea),
    ...rest.filter((entry) => !keepsBeforeRegion(entry)),
  ];
}

/**
 * Whether an area is a first-level region (the build adds one per region of
 * the region table, and a hand-kept area such as Tuscany may be one too):
 * named as the region its admin1 code is. A region of that name yields to
 * more towns than a hand-kept cycling area does, since its names are the
 * ones towns most often share ("Luzern", "Zug", "Luxembourg").
 */
function isFirstLevelRegion(place: IndexedPlace): boolean {
  return place.kind === 'region' && regionOf(place.countryCode, place.admin1)?.name === place.name;
}

/** How many of a region's towns an answer offers as its parts. */
export const REGION_PARTS = 5;
/**
 * Parts lie at least this far apart, and a third of the region's radius when
 * that is more: Innsbruck's districts or Barcelona's suburbs are one part, so
 * the list spreads over the region instead.
 */
export const REGION_PARTS_APART_KM = 25;

/** How far down the population order a first-level region's towns are looked for (a region of villages only). */
const REGION_PARTS_SCAN = 40_000;

/**
 * A region's towns, spread out, for an assistant to ask which part is
 * meant: for a hand-kept area the towns areas.ts lists (the cycling ones,
 * found by name), for any other first-level region its largest towns by its
 * admin1 code. The index runs largest first, so that scan stops at the
 * fifth, or after REGION_PARTS_SCAN places (a region of villages: they are
 * no parts a rider would name).
 */
function regionParts(index: GazetteerIndex, region: IndexedPlace): IndexedPlace[] {
  const parts: IndexedPlace[] = [];
  const apartKm = Math.max(REGION_PARTS_APART_KM, (region.radiusM ?? 0) / 3000);
  const offer = (place: IndexedPlace) => {
    if (parts.length < REGION_PARTS && parts.every((part) => distanceKm(part, place) >= apartKm))
      parts.push(place);
  };
  const area = AREAS.find((a) => a.name === region.name && a.countryCode === region.countryCode);
  if (area !== undefined) {
    for (const spec of area.towns) {
      const [name = '', admin1] = spec.split('/');
      const town = index
        .lookup(foldName(name))
        .map((i) => index.place(i))
        .find(
          (p) => p.kind === 'town' && p.countryCode === area.countryCode && (admin1 ?? p.admin1) === p.admin1,
        );
      if (town !== undefined) offer(town);
    }
    return parts;
  }
  const end = Math.min(index.placeCount, REGION_PARTS_SCAN);
  for (let i = 0; i < end && parts.length < REGION_PARTS; i++) {
    const place = index.place(i);
    if (place.kind === 'town' && place.countryCode === region.countryCode && place.admin1 === region.admin1)
      offer(place);
  }
  return parts;
}

/** Whether the first of `ranked` has a rival (see AMBIGUOUS_SCORE_SHARE). */
function hasRival(ranked: readonly Scored[]): boolean {
  const [best, ...rest] = ranked;
  if (best === undefined || best.place.kind === 'island' || best.place.kind === 'region') return false;
  return rest.some(
    ({ place, score, own }) =>
      place.kind === 'town' &&
      distanceKm(best.place, place) >= AMBIGUOUS_APART_KM &&
      ((own && !best.own) ||
        Math.min(score, best.score) >= AMBIGUOUS_SCORE_SHARE * Math.max(score, best.score)),
  );
}

/**
 * "Paris, US" or "London, CA": a code that is both a country and a region
 * ("US" is also a Czech region, "CA" California) means the country first;
 * the region's places follow as alternatives. Stable, so each part keeps
 * its ranking.
 */
function countryReadingFirst(query: PlaceQuery, ranked: readonly Scored[]): Scored[] {
  if (query.countries.length === 0 || query.regions.length === 0) return [...ranked];
  const inCountry = ({ place }: Scored) => query.countries.includes(place.countryCode);
  return [...ranked.filter(inCountry), ...ranked.filter((entry) => !inCountry(entry))];
}

/** Great-circle distance between two places, km. */
function distanceKm(a: Place, b: Place): number {
  return greatCircleM(a, b) / 1000;
}

/** What a caller sees of a gazetteer place: the region by name, not GeoNames' code, and no ranking data. */
function presentPlace(place: IndexedPlace): Place {
  const { name, countryCode, lat, lon, population, admin1, kind, radiusM } = place;
  const rest = { name, countryCode, lat, lon, population };
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
/**
 * Where each line of that file starts (`gazetteerLineStarts`), which the
 * function bundle step writes beside it (`scripts/vercel/bundle-functions.ts`);
 * absent in the sources, where the lines are found as the file is read.
 */
export const GAZETTEER_LINES_PATH = new URL('./gazetteer.generated.lines', import.meta.url);
const loaded = new Map<string, Promise<Geocoder>>();

/** The offsets file as 32-bit offsets (little-endian, as written), or undefined when there is none. */
async function readLineStarts(path: string | URL): Promise<Uint32Array | undefined> {
  try {
    const bytes = await readFile(path);
    if (bytes.byteLength % 4 !== 0) return undefined;
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
    return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  } catch {
    return undefined;
  }
}

/**
 * Reads the generated gazetteer once per path and keeps it for the life of
 * the process. A failed read is not cached, so a later call can succeed.
 * The line offsets are read from `linesPath` when it holds ones that fit
 * (by default beside the default file only), else found in the bytes.
 */
export function loadGazetteer(
  path: string | URL = GAZETTEER_PATH,
  linesPath: string | URL | undefined = path === GAZETTEER_PATH ? GAZETTEER_LINES_PATH : undefined,
): Promise<Geocoder> {
  const cacheKey = String(path);
  const cached = loaded.get(cacheKey);
  if (cached !== undefined) return cached;
  const loading = Promise.all([
    readFile(path),
    linesPath === undefined ? undefined : readLineStarts(linesPath),
  ])
    .then(([bytes, lines]) => gazetteerGeocoder(readGazetteer(bytes, lines)))
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
