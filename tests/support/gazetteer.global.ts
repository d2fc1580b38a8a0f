/**
 * Global setup of the `unit` project (vitest.config.ts): the lane needs no build, but the offline
 * place list and the region index are generated data. They are brought up to date once here, before
 * any file reads them: files run side by side, and one rebuilding a file while another reads it
 * would see half of it.
 */
import { ensureGeneratedData } from '../../scripts/data/generated.ts';

export async function setup(): Promise<void> {
  await ensureGeneratedData();
}
