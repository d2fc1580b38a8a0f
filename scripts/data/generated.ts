/**
 * Every data file the code reads at run time that the build generates
 * (untracked, under `src/data/`): each is rebuilt only when one of its
 * inputs is newer. `npm run build`, `npm start`, `npm run data` and the unit
 * lane's setup all come through here, so they agree on what exists.
 */
import { ensureGazetteer } from './gazetteer.ts';

/** Brings each generated data file up to date; returns their paths. */
export async function ensureGeneratedData(
  options: { force?: boolean; log?: boolean } = {},
): Promise<string[]> {
  return [await ensureGazetteer(options)];
}

if (import.meta.main) {
  await ensureGeneratedData({ force: process.argv.includes('--force'), log: true });
}
