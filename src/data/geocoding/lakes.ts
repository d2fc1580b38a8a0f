import { greatCircleM } from '../../core/distance.ts';
import { foldName } from '../names.ts';
import type { GazetteerIndex, IndexedPlace } from './gazetteer-format.ts';
import { nameWeight } from './name-weight.ts';

/**
 * Lakes riders ride around, found without a lake list: GeoNames' populated
 * places (the only data the gazetteer has; no openly licensed npm package
 * holds named lakes with an extent) name lakes in two ways, and the rule
 * reads both.
 *
 * 1. A lake named after a town on its shore: "Lake Geneva" → Genève (found
 *    by its alternate name "Geneva" and ranked as a place name is), "Lake
 *    Constance" → Konstanz, "Lac d'Annecy" → Annecy, "Lake Thun" → Thun.
 * 2. Towns named after the lake: "Riva del Garda", "Kressbronn am Bodensee",
 *    "Chens-sur-Léman", "South Lake Tahoe", "Le Bourget-du-Lac",
 *    "Balatonfüred": the lake's name after a shore word (am, sul, del, sur…),
 *    beside a lake word (lake, lac, see…), or starting a compound.
 *
 * The towns found for the lake's name are grouped into clusters of towns
 * within CLUSTER_LINK_KM of one another; the cluster with the highest score
 * (population × LAKE_NAMED_WEIGHT for a town named after the lake, population
 * × the name weight for a town of that name) is the lake. Its point is the
 * mean of the cluster's towns, its radius reaches the farthest of them plus
 * a margin, and never less than LAKE_MIN_RADIUS_KM: enough for the ride
 * around most lakes, and a hint to pass a larger radius_m for the largest.
 * The gazetteer keeps the villages named after a lake below its population
 * cut of 1,000 (scripts/data/gazetteer.ts), since for some lakes they are the
 * only places that carry its name: "Lago Maggiore" is read from Tronzano Lago
 * Maggiore (171 people) and Pino sulla Sponda del Lago Maggiore, not from
 * Castel Maggiore near Bologna, which only mentions the name. A lake no
 * place carries the name of ("Loch Ness") is not found, rather than found
 * wrong.
 */

/** Query words that say "lake", before or after the lake's name ("Lake Garda", "Tahoe Lake", "Lac du Bourget"). */
const LAKE_PREFIXES: readonly string[] = [
  'lake of the',
  'lake of',
  'lake',
  'lac de la',
  'lac des',
  'lac du',
  'lac de',
  'lac d',
  'lac',
  'lago di',
  'lago de',
  'lago del',
  'lago d',
  'lago',
  'laguna de',
  'laguna',
  'loch',
  'lough',
  'jezioro',
  'ozero',
];
const LAKE_SUFFIXES: readonly string[] = ['lake', 'see'];

/** Words of a town's name that say it lies on a lake ("Neusiedl am See", "Le Bourget-du-Lac"). */
const LAKE_WORDS = new Set([
  ...'lake lakes lac lacs lago laghi lagoa laguna loch lough see jezioro ozero'.split(' '),
]);

/** Whether the words of a folded town name say it lies on a lake ("feld am see", "tronzano lago maggiore"). */
export function namesLakeWords(words: readonly string[]): boolean {
  return words.some((word) => LAKE_WORDS.has(word));
}

/** Words before a lake's name in a town named after it: "am Bodensee", "del Garda", "sur Léman", "on the Lake". */
const SHORE_WORDS = new Set([
  ...'am an im sul sull sulla del della dello di al sur on by upon de du d'.split(' '),
]);

/** A town named after the lake counts this many times its population; a town of that name, by its name weight. */
export const LAKE_NAMED_WEIGHT = 3;
/** Towns this close to one another belong to one lake (single linkage, so a long lake's shore chains up). */
export const CLUSTER_LINK_KM = 40;
/** A lake's radius is at least this, which covers the ride around most lakes from its point. */
export const LAKE_MIN_RADIUS_KM = 25;
const RADIUS_MARGIN_KM = 5;
const RADIUS_STEP_KM = 5;
const MAX_RADIUS_KM = 100;
/** A compound names the lake only when the name is this long ("Balatonfüred"; not "Como" in "Comodoro"). */
const MIN_COMPOUND_PREFIX = 6;
/** …and the rest of the compound is a word of its own ("füred"), not an ending ("Plácido" is no lake Placid). */
const MIN_COMPOUND_REST = 3;
/**
 * A name found at the start of a word in more keys than this is a common word
 * ("Lake City", "Lake Park"), not a lake's name: no lake is read from it. The
 * lake names of the survey appear in 2 to 60 keys.
 */
export const COMMON_WORD_KEYS = 100;

export interface FoundLake {
  readonly place: IndexedPlace;
  /** The lake's score, comparable with a town's (population × name weight). */
  readonly score: number;
}

/** The names a lake query may mean, most literal first: "lake garda" → ["garda"]; "zurichsee" → ["zurichsee", "zurich"]. */
export function lakeNames(folded: string): string[] {
  for (const prefix of LAKE_PREFIXES) {
    if (folded.startsWith(`${prefix} `)) return [folded.slice(prefix.length + 1)];
  }
  for (const suffix of LAKE_SUFFIXES) {
    if (folded.endsWith(` ${suffix}`)) {
      const name = folded.slice(0, -suffix.length - 1);
      // "Starnberger See", "Thuner See": the German adjective of the town's name.
      return name.endsWith('er') && name.length > 5 ? [name, name.slice(0, -2)] : [name];
    }
  }
  // "Bodensee", "Zürichsee", "Thunersee": one word ending in "see".
  if (!folded.includes(' ') && folded.endsWith('see') && folded.length >= 7) {
    const stem = folded.slice(0, -3);
    return stem.endsWith('er') && stem.length > 5 ? [folded, stem, stem.slice(0, -2)] : [folded, stem];
  }
  return [];
}

/** How a town relates to the lake's name `name`, by one of its keys. */
function roleOf(key: string, name: string): 'named-after' | 'same-name' | 'mentions' | null {
  if (key === name) return 'same-name';
  const words = key.split(' ');
  const nameWords = name.split(' ');
  for (let i = 0; i + nameWords.length <= words.length; i++) {
    const head = words[i] ?? '';
    const whole = nameWords.every((word, j) => words[i + j] === word);
    const compound =
      nameWords.length === 1 &&
      name.length >= MIN_COMPOUND_PREFIX &&
      head.length >= name.length + MIN_COMPOUND_REST &&
      head.startsWith(name);
    if (!whole && !compound) continue;
    if (compound && !whole) return 'named-after';
    if (i > 0 && SHORE_WORDS.has(words[i - 1] ?? '')) return 'named-after';
    if (namesLakeWords(words)) return 'named-after';
    return 'mentions';
  }
  return null;
}

interface Member {
  readonly place: IndexedPlace;
  readonly score: number;
}

/**
 * The lake a query names ("Lake Garda", "Lac d'Annecy", "Bodensee") among the
 * towns `inScope` keeps, or null when it names none or the gazetteer holds no
 * town for it. A cluster made
 * only of towns literally called what was typed ("Lake Placid") is those
 * towns, not a lake.
 */
export function findLake(
  index: GazetteerIndex,
  query: string,
  inScope: (place: IndexedPlace) => boolean = () => true,
): FoundLake | null {
  const folded = foldName(query);
  for (const name of lakeNames(folded)) {
    if (name.length < 3) continue;
    const lake = lakeOf(index, name, folded, query, inScope);
    if (lake !== null) return lake;
  }
  return null;
}

function lakeOf(
  index: GazetteerIndex,
  name: string,
  folded: string,
  query: string,
  inScope: (place: IndexedPlace) => boolean,
): FoundLake | null {
  const best = new Map<number, Member>();
  const add = (i: number, score: number) => {
    const place = index.place(i);
    // "Lake Geneva, US": only towns where the qualifier says make the lake.
    if (place.kind !== 'town' || !inScope(place)) return;
    const known = best.get(i);
    if (known === undefined || score > known.score) best.set(i, { place, score });
  };
  const keys = index.keysWithWord(name, COMMON_WORD_KEYS + 1);
  if (keys.length > COMMON_WORD_KEYS) return null;
  for (const { key, places } of keys) {
    const role = roleOf(key, name);
    for (const i of places) {
      const population = index.place(i).population ?? 0;
      if (role === 'named-after') add(i, population * LAKE_NAMED_WEIGHT);
      else if (role === 'same-name') add(i, population * nameWeight(index.place(i), name));
      // Only joins a cluster another town starts ("Tahoe City" beside South Lake Tahoe).
      else if (role === 'mentions') add(i, 0);
    }
  }
  const clusters = clustersOf([...best.values()]);
  const scored = clusters.map((members) => ({
    members,
    score: members.reduce((sum, m) => sum + m.score, 0),
  }));
  const winner = scored.filter(({ score }) => score > 0).sort((a, b) => b.score - a.score)[0];
  if (winner === undefined) return null;
  const { members } = winner;
  // Towns that only mention the name do not make a lake of towns literally called what was typed.
  if (members.every(({ place, score }) => score === 0 || foldName(place.name) === folded)) return null;
  const lat = members.reduce((sum, { place }) => sum + place.lat, 0) / members.length;
  const lon = members.reduce((sum, { place }) => sum + place.lon, 0) / members.length;
  const farthest = Math.max(...members.map(({ place }) => greatCircleM({ lat, lon }, place) / 1000));
  const radiusKm = Math.min(
    MAX_RADIUS_KM,
    Math.max(LAKE_MIN_RADIUS_KM, Math.ceil((farthest + RADIUS_MARGIN_KM) / RADIUS_STEP_KM) * RADIUS_STEP_KM),
  );
  const [lead] = [...members].sort((a, b) => b.score - a.score);
  return {
    place: {
      name: query.trim().replace(/\s+/g, ' '),
      countryCode: lead?.place.countryCode ?? '',
      lat: Math.round(lat * 1e4) / 1e4,
      lon: Math.round(lon * 1e4) / 1e4,
      population: null,
      admin1: lead?.place.admin1 ?? '',
      names: 0,
      kind: 'lake',
      radiusM: radiusKm * 1000,
    },
    score: winner.score,
  };
}

/** Groups towns that chain within CLUSTER_LINK_KM of one another. */
function clustersOf(members: readonly Member[]): Member[][] {
  const parent = members.map((_, i) => i);
  const root = (i: number): number => {
    let at = i;
    while (parent[at] !== at) at = parent[at] ?? at;
    return at;
  };
  for (let a = 0; a < members.length; a++) {
    for (let b = a + 1; b < members.length; b++) {
      const pa = members[a]?.place;
      const pb = members[b]?.place;
      if (pa && pb && greatCircleM(pa, pb) / 1000 <= CLUSTER_LINK_KM) parent[root(b)] = root(a);
    }
  }
  const groups = new Map<number, Member[]>();
  members.forEach((member, i) => {
    const group = groups.get(root(i));
    if (group === undefined) groups.set(root(i), [member]);
    else group.push(member);
  });
  return [...groups.values()];
}
