/**
 * Build-time index of the first-level regions a place query may name after a
 * comma ("Colorado", "CO", "Catalonia"): reads the committed table
 * `src/data/geocoding/admin1-regions.tsv` (written by scripts/data/admin1.ts)
 * and writes `src/data/geocoding/regions.generated.tsv` (untracked), the
 * regions plus every folded name and code with the lines of its regions
 * (layout: src/data/geocoding/region-index.ts), so the server's first
 * "Town, Region" query reads one file and folds nothing.
 *
 * Keys of a region: its GeoNames name and other names, its ISO 3166-2 and
 * GeoNames admin1 codes when they are letters ("CO" is typed, GeoNames' "56"
 * is not), and `<country>-<ISO code>`, each folded by foldName.
 *
 * Run: `npm run data` (`-- --force` rebuilds even when fresh).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { formatRegionIndex, type RegionIndex } from '../../src/data/geocoding/region-index.ts';
import { REGION_INDEX_PATH } from '../../src/data/geocoding/regions.ts';
import { foldName } from '../../src/data/names.ts';
import { freshness, writeWhole } from './generated-file.ts';

export const REGION_TABLE = new URL('../../src/data/geocoding/admin1-regions.tsv', import.meta.url);
/** Files whose change must trigger a rebuild: the table, this script, the folding rule, the layout. */
const INPUTS = [
  REGION_TABLE,
  new URL(import.meta.url),
  new URL('../../src/data/names.ts', import.meta.url),
  new URL('../../src/data/geocoding/region-index.ts', import.meta.url),
];
const HEADER = 'country\tadmin1\tiso\tgeonames_id\tname\tother_names';
const LETTER_CODE = /^[A-Z]{2,3}$/i;

/** The region lines of the committed table: comments (`#`) and the column header left out. */
export function regionRows(table: string): string[] {
  const lines = table.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  if (lines[0] !== HEADER)
    throw new Error(`admin1-regions.tsv: the first line after the comments must be "${HEADER}".`);
  return lines.slice(1);
}

/** The folded keys of one region line. */
export function regionKeys(row: string): Set<string> {
  const [countryCode = '', admin1 = '', iso = '', , name = '', others = ''] = row.split('\t');
  const names = [name, ...(others === '' ? [] : others.split('|'))];
  const codes = [iso, admin1].filter((code) => LETTER_CODE.test(code));
  const keys = new Set([...names, ...codes, `${countryCode}-${iso}`].map(foldName));
  keys.delete('');
  return keys;
}

/** The index of a table: its rows as they are, and each key's rows in table order. */
export function indexRegions(rows: readonly string[]): RegionIndex {
  const postings = new Map<string, number[]>();
  rows.forEach((row, line) => {
    for (const key of regionKeys(row)) postings.set(key, [...(postings.get(key) ?? []), line]);
  });
  const keys = [...postings.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${key}\t${(postings.get(key) ?? []).join(',')}`);
  return { regions: rows, keys };
}

/**
 * Makes sure the region index exists and is newer than its inputs (a few ms
 * when fresh, about 100 ms to rebuild); returns its path.
 */
export async function ensureRegionIndex(options: { force?: boolean; log?: boolean } = {}): Promise<string> {
  const path = fileURLToPath(REGION_INDEX_PATH);
  const { fresh } = await freshness(REGION_INDEX_PATH, INPUTS);
  if (fresh && options.force !== true) {
    if (options.log === true) console.log(`regions: up to date → ${path}`);
    return path;
  }
  const started = performance.now();
  const index = indexRegions(regionRows(await readFile(REGION_TABLE, 'utf8')));
  const text = formatRegionIndex(index);
  await writeWhole(path, text);
  if (options.log === true) {
    const kilobytes = (Buffer.byteLength(text) / 1e3).toFixed(0);
    const ms = (performance.now() - started).toFixed(0);
    console.log(
      `regions: ${index.regions.length} regions, ${index.keys.length} keys, ${kilobytes} kB in ${ms} ms → ${path}`,
    );
  }
  return path;
}

if (import.meta.main) {
  await ensureRegionIndex({ force: process.argv.includes('--force'), log: true });
}
