/**
 * `npm run segments:import`: adds GPX or GeoJSON segments to an operator catalog and packs its
 * index, or (`--pack`) only validates and packs a catalog. `--help` for the usage.
 */
import { DEFAULT_IMPORT_FILE, describeImport, importSegmentFile } from '../src/data/segments/import.ts';
import { SegmentCatalogError } from '../src/data/segments/geojson.ts';
import { indexPathFor, packCatalogFile } from '../src/data/segments/pack-file.ts';
import { parseCommand, runCommand, UsageError } from './cli.ts';

const NAME = 'npm run segments:import';

const USAGE = `Usage: npm run segments:import -- <file.gpx|file.geojson> [--out ${DEFAULT_IMPORT_FILE}]
       [--name NAME] [--id ID] [--country XX] [--rank N] [--license TEXT] [--replace]
       npm run segments:import -- --pack <catalog.geojson|catalog.geojsonl> [--out catalog.segidx]
A GPX file becomes one segment (--country is required); a GeoJSON file is validated and merged whole.
A new catalog file starts as a copy of the built-in catalog, so the import extends it; --replace starts it
empty instead, so the server then serves only what was imported. An existing file is extended.
Either way the catalog is also packed into the index the server loads (WOS_SEGMENTS_FILE).
--pack only validates and packs a catalog (a .geojsonl file holds one Feature per line, for big ones).`;

/** --pack: validate a whole catalog and write its index, without merging anything. */
function pack(input: string, out: string | undefined): number {
  const started = performance.now();
  const report = packCatalogFile(input, out ?? indexPathFor(input));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Packed ${report.segments} segment(s), ${report.points} points, into ${report.path} ` +
      `(${(report.bytes / 1e6).toFixed(1)} MB) in ${seconds} s.\nServe it with: WOS_SEGMENTS_FILE=${report.path} npm start`,
  );
  return 0;
}

const COMMAND = {
  name: NAME,
  usage: USAGE,
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    pack: { type: 'boolean' },
    name: { type: 'string' },
    id: { type: 'string' },
    country: { type: 'string' },
    rank: { type: 'string' },
    license: { type: 'string' },
    replace: { type: 'boolean' },
  },
} as const;

function main(argv: readonly string[]): number {
  const { values, positionals } = parseCommand(COMMAND, argv);
  const [input, ...extra] = positionals;
  if (input === undefined) throw new UsageError('name the file to import (a .gpx or .geojson file)');
  if (extra.length > 0) throw new UsageError(`one file at a time; unexpected "${extra[0]}"`);
  if (values.pack === true) return pack(input, values.out);
  const rank = values.rank === undefined ? undefined : Number(values.rank);
  if (rank !== undefined && !(Number.isInteger(rank) && rank >= 1)) {
    throw new UsageError(`--rank must be a whole number of 1 or more, not "${values.rank}"`);
  }
  const report = importSegmentFile(input, { ...values, out: values.out ?? DEFAULT_IMPORT_FILE, rank });
  console.log(describeImport(report));
  return 0;
}

await runCommand(NAME, () => {
  try {
    return main(process.argv.slice(2));
  } catch (error) {
    // A refused catalog lists every problem found (the first 50), one per line, to fix them in one go.
    if (!(error instanceof SegmentCatalogError)) throw error;
    console.error(error.message);
    return 1;
  }
});
