/**
 * Global setup of the `unit` project (vitest.config.ts): the lane needs no build, but the offline
 * place list is generated data. It is brought up to date once here, before any file reads it:
 * files run side by side, and one rebuilding it while another reads it would see half a file.
 */
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';

export async function setup(): Promise<void> {
  await ensureGazetteer();
}
