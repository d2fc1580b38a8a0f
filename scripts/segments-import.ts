import { parseArgs } from 'node:util';
import { DEFAULT_IMPORT_FILE, describeImport, importSegmentFile } from '../src/data/segments/import.ts';

const USAGE = `Usage: npm run segments:import -- <file.gpx|file.geojson> [--out ${DEFAULT_IMPORT_FILE}]
       [--name NAME] [--id ID] [--country XX] [--rank N] [--license TEXT]
A GPX file becomes one segment (--country is required); a GeoJSON file is validated and merged whole.`;

function main(argv: readonly string[]): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      out: { type: 'string', default: DEFAULT_IMPORT_FILE },
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
  const rank = values.rank === undefined ? undefined : Number(values.rank);
  if (rank !== undefined && !(Number.isInteger(rank) && rank >= 1)) {
    console.error(`--rank must be a whole number of 1 or more, not "${values.rank}"`);
    return 2;
  }
  const report = importSegmentFile(input, { ...values, rank });
  console.log(describeImport(report));
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
