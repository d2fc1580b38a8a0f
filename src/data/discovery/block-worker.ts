/**
 * A worker thread of the build (block-pool.ts): discovers the blocks it is
 * sent, one at a time, with its own elevation tiles (a bounded cache) and its
 * own country and town lookups. Nothing but the task and the result crosses threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadTownsIn } from '../geocoding/gazetteer-towns.ts';
import { loadCountryOf } from '../geocoding/nearest-country.ts';
import { discoverBlock, type BlockTask } from './block-discovery.ts';
import { hgtElevationSource } from './hgt-elevation.ts';

const { demDir, maxTiles } = workerData as { demDir: string; maxTiles: number };
const elevation = hgtElevationSource(demDir, { maxTiles });
const countryOf = loadCountryOf();
const townsIn = loadTownsIn();
const port = parentPort;

port?.on('message', (task: BlockTask) => {
  void (async () => {
    try {
      port.postMessage({ result: await discoverBlock(task, elevation, await countryOf, await townsIn) });
    } catch (error) {
      port.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
