import { parseArgs } from 'node:util';
import { DEFAULT_IMPORT_FILE, describeImport, importSegmentFile } from '../src/data/segments/import.ts';
import { indexPathFor, packCatalogFile } from '../src/data/segments/pack-file.ts';

const USAGE = `Usage: npm run segments:import -- <file.gpx|file.geojson> [--out ${DEFAULT_IMPORT_FILE}]
       [--name NAME] [--id ID] [--country XX] [--rank N] [--license TEXT]
       npm run segments:import -- --pack <catalog.geojson|catalog.geojsonl> [--out catalog.segidx]
A GPX file becomes one segment (--country is required); a GeoJSON file is validated and merged whole.
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

function main(argv: readonly string[]): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      pack: { type: 'boolean' },
      name: { type: 'string' },
      id: { type: 'string' },
      country: { type: 'string' },
      rank: { type: 'string' },
      license: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  if (values.pack === true) return pack(input, values.out);
  const rank = values.rank === undefined ? undefined : Number(values.rank);
  if (rank !== undefined && !(Number.isInteger(rank) && rank >= 1)) {
    console.error(`--rank must be a whole number of 1 or more, not "${values.rank}"`);
    return 2;
  }
  const report = importSegmentFile(input, { ...values, out: values.out ?? DEFAULT_IMPORT_FILE, rank });
  console.log(describeImport(report));
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
