/**
 * The floor rows of the cold-start bench: two functions that do the least a
 * function of each kind can, bundled exactly as the project's functions are
 * (`bundleEntry`, scripts/vercel/bundle-functions.ts) and timed in the same
 * run, so each function's first answer is read as a ratio to what Node, the
 * MCP SDK and the bundling cost on the same machine in the same minutes.
 *
 * - `mcp-floor`: one tool over the MCP SDK's stateless handler (`cold-start-floor-mcp.ts`),
 *   a fetch function as `api/mcp` is;
 * - `rest-floor`: a bare `node:http` handler answering `/v1/tailwind` (`cold-start-floor-rest.ts`),
 *   a Node-style function as `api/rest` is.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleEntry } from '../scripts/vercel/bundle-functions.ts';
import { directorySize } from './bundle-sizes.ts';

/** The floor functions by the name their rows give, with the entry each is bundled from. */
export const FLOORS = {
  'floor/mcp': fileURLToPath(new URL('./cold-start-floor-mcp.ts', import.meta.url)),
  'floor/rest': fileURLToPath(new URL('./cold-start-floor-rest.ts', import.meta.url)),
} as const;

export type FloorName = keyof typeof FLOORS;

/** A floor function bundled alone in a folder of its own: its entry's file URL and its size. */
export interface BuiltFloor {
  readonly entry: string;
  readonly bytes: number;
  readonly files: number;
}

/** Bundles each floor function into a fresh temporary folder of its own, as a function's folder holds it. */
export async function buildFloors(): Promise<Map<FloorName, BuiltFloor>> {
  const built = new Map<FloorName, BuiltFloor>();
  for (const [name, entry] of Object.entries(FLOORS) as [FloorName, string][]) {
    const dir = join(mkdtempSync(join(tmpdir(), 'wos-floor-')), 'fn');
    mkdirSync(dir);
    const bundled = await bundleEntry(entry, dir);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    built.set(name, { entry: pathToFileURL(bundled.file).href, ...(await directorySize(dir)) });
  }
  return built;
}
