import { Buffer } from 'node:buffer';
import type { Place, PlaceKind } from './types.ts';

/** A place with the folded keys it is found by (see `foldName`). */
export interface GazetteerRow extends Place {
  readonly keys: readonly string[];
  /** GeoNames admin1 code ("CO", "56"); empty or absent when unknown. */
  readonly admin1?: string;
  /** How many alternate names GeoNames records for it (see `IndexedPlace.names`); 0 when absent. */
  readonly names?: number;
}

/** A place as the file holds it: with its admin1 code, for "Town, Region" queries. */
export interface IndexedPlace extends Place {
  readonly admin1: string;
  readonly kind: PlaceKind;
  /**
   * How many alternate names GeoNames records for the place, in every script
   * (roughly one per language that names it): Paris 108, Padova 24, Padua in
   * Colombia 0. How widely a place is known, which its population alone does
   * not say; the ranking weighs an alternate name by it (see `nameWeight`).
   */
  readonly names: number;
}

/** Read access to a gazetteer; place indices run in population order, largest first. */
export interface GazetteerIndex {
  readonly placeCount: number;
  readonly keyCount: number;
  place(index: number): IndexedPlace;
  /** Indices of the places a folded key belongs to, ascending. */
  lookup(key: string): readonly number[];
  /** Every key, for the typo scan. */
  allKeys(): string[];
  /**
   * The keys holding `word` as a whole word or at the start of a word ("garda"
   * in "riva del garda", "balaton" in "balatonfured"), with their places; at
   * most `max`. A scan of the file's bytes, for the rare lake query.
   */
  keysWithWord(word: string, max: number): { key: string; places: number[] }[];
}

/**
 * Alternate names in scripts other than Latin are kept only for places of
 * this many people or more ("東京", "Москва", "Αθήνα"). Keeping them for
 * every place made the file 13.7 MB instead of 9.9 MB (+39 %) and slowed
 * loading by half, for queries an assistant rarely sends (it passes the names
 * users write, and GeoNames lists Latin transliterations such as "Moskva"
 * anyway); for the ~4,500 larger cities they cost under 1 MB.
 */
export const OTHER_SCRIPTS_MIN_POPULATION = 100_000;

const MAGIC = 'wos-gazetteer';
const VERSION = '3';

/**
 * Writes the gazetteer text: a header line, one line per place (name, country,
 * lat, lon, population, admin1 code, number of alternate names, kind, radius
 * in km for islands and regions; by population, largest first, islands and regions last) and one line per key,
 * sorted, with the base-36 indices of its places. An inverted, sorted key list
 * is what lets the server "load" it by splitting lines and binary-searching:
 * building a Map of ~400k keys instead took longer than the whole load budget.
 */
export function formatGazetteer(rows: readonly GazetteerRow[]): string {
  const places = [...rows].sort((a, b) => (b.population ?? -1) - (a.population ?? -1));
  const postings = new Map<string, number[]>();
  places.forEach((place, index) => {
    for (const key of new Set(place.keys)) {
      if (key === '' || /[\t\n]/.test(key)) continue;
      const list = postings.get(key);
      if (list === undefined) postings.set(key, [index]);
      else list.push(index);
    }
  });
  const keys = [...postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = [`${MAGIC}\t${VERSION}\t${places.length}\t${keys.length}`];
  for (const { name, countryCode, lat, lon, population, admin1, names, kind, radiusM } of places) {
    const fields = [name.replace(/\s+/g, ' '), countryCode, lat.toFixed(4), lon.toFixed(4), population ?? ''];
    const area = kind === 'island' || kind === 'region';
    const named = names !== undefined && names > 0 ? Math.round(names) : '';
    // Trailing fields only when set: most places end at the name count, which keeps the file small.
    if (area) fields.push(admin1 ?? '', named, kind, radiusM == null ? '' : Math.round(radiusM / 1000));
    else if (named !== '') fields.push(admin1 ?? '', named);
    else if (admin1 !== undefined && admin1 !== '') fields.push(admin1);
    lines.push(fields.join('\t'));
  }
  for (const key of keys)
    lines.push(`${key}\t${(postings.get(key) ?? []).map((i) => i.toString(36)).join(',')}`);
  return `${lines.join('\n')}\n`;
}

const NEWLINE = 0x0a;
const TAB = 0x09;
const SPACE = 0x20;

/**
 * Where each of the first `count` lines of `bytes` starts, plus one past
 * the end of the last (as if it ended in a newline); undefined when there
 * are fewer lines.
 */
function lineStarts(bytes: Buffer, count: number): Uint32Array | undefined {
  const starts = new Uint32Array(count + 1);
  let at = 0;
  for (let line = 0; line < count; line++) {
    if (at > bytes.length) return undefined;
    starts[line] = at;
    const end = bytes.indexOf(NEWLINE, at);
    at = end === -1 ? bytes.length + 1 : end + 1;
  }
  starts[count] = at;
  return starts;
}

/** The header's place and key counts (the file has `1 + placeCount + keyCount` lines); undefined when not a gazetteer of this version. */
function countsOf(bytes: Buffer): { placeCount: number; keyCount: number } | undefined {
  const headerEnd = bytes.indexOf(NEWLINE);
  const [magic, version, places, keys] = bytes
    .toString('utf8', 0, headerEnd === -1 ? bytes.length : headerEnd)
    .split('\t');
  const placeCount = Number(places);
  const keyCount = Number(keys);
  const counted = [placeCount, keyCount].every((count) => Number.isSafeInteger(count) && count >= 0);
  return magic === MAGIC && version === VERSION && counted ? { placeCount, keyCount } : undefined;
}

const NOT_A_GAZETTEER =
  'not a gazetteer file of this version; rebuild it with `node scripts/data/gazetteer.ts`';

const bufferOf = (source: string | Uint8Array) =>
  typeof source === 'string'
    ? Buffer.from(source, 'utf8')
    : Buffer.from(source.buffer, source.byteOffset, source.byteLength);

/**
 * Where each line of a gazetteer file starts, as `readGazetteer` indexes it:
 * what the bundle step writes beside the file (`gazetteer.generated.lines`),
 * so a cold start reads the offsets instead of finding 500,000 newlines.
 */
export function gazetteerLineStarts(source: string | Uint8Array): Uint32Array {
  const bytes = bufferOf(source);
  const counts = countsOf(bytes);
  const starts = counts && lineStarts(bytes, 1 + counts.placeCount + counts.keyCount);
  if (starts === undefined) throw new Error(NOT_A_GAZETTEER);
  return starts;
}

/** Every this many lines, a precomputed start is checked against the bytes. */
const STARTS_CHECKED_EVERY = 1024;

/**
 * Whether offsets read from beside the file fit its bytes: one per line plus
 * the end, each sampled one just after a newline. Offsets left from another
 * build of the file fail this, and the lines are then found afresh.
 */
function startsFit(starts: Uint32Array, bytes: Buffer, count: number): boolean {
  const end = starts[count];
  if (starts.length !== count + 1 || starts[0] !== 0 || end === undefined || end < bytes.length) return false;
  if (end > bytes.length + 1) return false;
  const afterNewline = (line: number) => bytes[(starts[line] ?? 0) - 1] === NEWLINE;
  for (let line = STARTS_CHECKED_EVERY; line < count; line += STARTS_CHECKED_EVERY) {
    if (!afterNewline(line)) return false;
  }
  return count < 2 || afterNewline(count - 1);
}

/**
 * Opens a gazetteer file's bytes (or its text) for lookups; throws when it
 * is not a gazetteer file. The bytes stay as read, indexed by where each line
 * starts, and a line is decoded only when a lookup reads it. Decoding the
 * 11 MB file into one string and splitting it into ~700,000 lines took
 * about 150 ms of a cold start's first place name, half of it in garbage
 * collection; the offsets take a tenth of that, and none when `lines` (from
 * `gazetteerLineStarts`, read from beside the file) fits the bytes.
 */
export function readGazetteer(source: string | Uint8Array, lines?: Uint32Array): GazetteerIndex {
  const bytes = bufferOf(source);
  const counts = countsOf(bytes);
  if (counts === undefined) throw new Error(NOT_A_GAZETTEER);
  const { placeCount, keyCount } = counts;
  const count = 1 + placeCount + keyCount;
  const starts = lines !== undefined && startsFit(lines, bytes, count) ? lines : lineStarts(bytes, count);
  if (starts === undefined) throw new Error(NOT_A_GAZETTEER);
  const lineEnd = (line: number) => (starts[line + 1] ?? 1) - 1;
  const lineAt = (line: number) => bytes.toString('utf8', starts[line] ?? 0, lineEnd(line));
  const firstKey = 1 + placeCount;
  const keyAt = (line: number) => {
    const start = starts[line] ?? 0;
    const end = lineEnd(line);
    const tab = bytes.indexOf(TAB, start);
    return bytes.toString('utf8', start, tab === -1 || tab > end ? end : tab);
  };
  return {
    placeCount,
    keyCount,
    place(index) {
      const [
        name = '',
        countryCode = '',
        lat,
        lon,
        population = '',
        admin1 = '',
        names = '',
        kind = '',
        radius = '',
      ] = (index >= 0 && index < placeCount ? lineAt(1 + index) : '').split('\t');
      const area = kind === 'island' || kind === 'region';
      return {
        name,
        countryCode,
        lat: Number(lat),
        lon: Number(lon),
        population: population === '' ? null : Number(population),
        admin1,
        names: names === '' ? 0 : Number(names),
        kind: area ? kind : 'town',
        radiusM: area && radius !== '' ? Number(radius) * 1000 : null,
      };
    },
    lookup(key) {
      let low = firstKey;
      let high = firstKey + keyCount - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const found = keyAt(middle);
        if (found < key) low = middle + 1;
        else if (found > key) high = middle - 1;
        else
          return lineAt(middle)
            .slice(found.length + 1)
            .split(',')
            .map((i) => parseInt(i, 36));
      }
      return [];
    },
    keysWithWord(word, max) {
      const needle = Buffer.from(word, 'utf8');
      const begin = starts[firstKey] ?? bytes.length;
      const found: { key: string; places: number[] }[] = [];
      if (needle.length === 0) return found;
      let at = bytes.indexOf(needle, begin);
      while (at !== -1 && found.length < max) {
        const lineStart = bytes.lastIndexOf(NEWLINE, at) + 1;
        const tab = bytes.indexOf(TAB, lineStart);
        const lineEnd = bytes.indexOf(NEWLINE, at);
        const next = lineEnd === -1 ? bytes.length : lineEnd;
        const before = at === lineStart ? SPACE : bytes[at - 1];
        const inKey = tab !== -1 && at < tab;
        // In the key (not the base-36 postings after the tab) and where a word starts: a key counts once.
        if (inKey && before === SPACE) {
          const key = bytes.toString('utf8', lineStart, tab);
          const places = bytes
            .toString('utf8', tab + 1, next)
            .split(',')
            .map((i) => parseInt(i, 36));
          found.push({ key, places });
        }
        const from = inKey && before !== SPACE ? at + 1 : next + 1;
        at = from >= bytes.length ? -1 : bytes.indexOf(needle, from);
      }
      return found;
    },
    allKeys() {
      const all: string[] = [];
      for (let line = firstKey; line < firstKey + keyCount; line++) all.push(keyAt(line));
      return all;
    },
  };
}
