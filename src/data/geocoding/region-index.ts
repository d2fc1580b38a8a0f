/**
 * The layout of the generated region index (`regions.generated.tsv`, built
 * by scripts/data/regions.ts from the committed `admin1-regions.tsv`), in one
 * place for the writer and the reader:
 *
 * - a header line: `wos-regions`, the format version, the number of regions,
 *   the number of keys (tab-separated);
 * - one line per region, sorted by country and admin1 code: country code,
 *   GeoNames admin1 code, ISO 3166-2 code (after the dash), GeoNames feature
 *   id, GeoNames name, other names separated by "|";
 * - one line per folded name or code (see foldName), sorted, with the line
 *   numbers of its regions (from 0) separated by commas,
 *
 * so a lookup is a binary search and reading it folds and indexes nothing.
 */

/** Bumped whenever the layout or the key derivation changes, so an old file is rebuilt, not misread. */
export const REGION_INDEX_VERSION = 1;
const MAGIC = 'wos-regions';

export interface RegionIndex {
  readonly regions: readonly string[];
  readonly keys: readonly string[];
}

/** The file text of an index. */
export function formatRegionIndex(index: RegionIndex): string {
  const header = [MAGIC, REGION_INDEX_VERSION, index.regions.length, index.keys.length].join('\t');
  return `${[header, ...index.regions, ...index.keys].join('\n')}\n`;
}

/** Splits a file's text into its two sorted tables; throws on another format or a truncated file. */
export function parseRegionIndex(text: string): RegionIndex {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const [magic, version, regionCount, keyCount] = (lines[0] ?? '').split('\t');
  const regions = Number(regionCount);
  const keys = Number(keyCount);
  if (magic !== MAGIC || Number(version) !== REGION_INDEX_VERSION || lines.length !== 1 + regions + keys) {
    throw new Error(
      'not a region index of this version or a truncated one; rebuild it with `npm run data -- --force`',
    );
  }
  return { regions: lines.slice(1, 1 + regions), keys: lines.slice(1 + regions) };
}
