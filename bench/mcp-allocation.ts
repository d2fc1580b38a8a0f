/**
 * What one MCP call costs the heap, measured in-process where a loaded
 * machine cannot move the figures much: the memory bench's calls
 * (find_tailwind_segments at its places and get_segment on spread ids,
 * taking turns, 2026-07-28 protocol) through the real public endpoint over
 * a packed 1,000,000-segment catalog (`--index`, as the memory bench packs
 * it with seed 1) or the embedded one, `--concurrency` calls in flight, with
 * V8's GC profiler (`v8.GCProfiler`, an API, not a flag) recording every
 * collection. Per call: bytes allocated in the young generation (its use
 * before each collection, less what the previous one left there) and bytes
 * promoted (what the old generation gained across scavenges), the two
 * figures that grow the heap and the resident memory under load; plus the
 * calls per second of CPU. The same forecast (demo) and the same calls as
 * the memory bench, so a change to either shows here first.
 *
 * `node bench/mcp-allocation.ts [--index file.segidx] [--calls N] [--concurrency N] [--rounds N]`
 */
import { parseArgs } from 'node:util';
import { GCProfiler, getHeapSpaceStatistics } from 'node:v8';
import type { LatLon } from '../src/core/bearing.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { lazyGazetteer } from '../src/data/geocoding/gazetteer.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { openPackedCatalog } from '../src/data/segments/packed-catalog.ts';
import type { SegmentCatalog } from '../src/data/segments/types.ts';
import { createMcpEndpoint } from '../src/mcp/endpoint.ts';
import { mcpGuardConfig } from '../src/mcp/endpoint-guard.ts';
import { PUBLIC_TOOLS } from '../src/mcp/tools/public.ts';
import { readSettings } from '../src/app/settings.ts';
import { generateSegmentStream } from '../tests/support/synthetic-segments.ts';
import { call, findCalls, looksSuccessful, type McpCall } from './mcp-calls.ts';
import { keepingPlaces } from './mcp-world.ts';

const SEGMENTS = 1_000_000;
const PLACES = 50;
const IDS = 200;

const { values } = parseArgs({
  options: {
    index: { type: 'string' },
    calls: { type: 'string', default: '4000' },
    concurrency: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});

/** The memory bench's calls over the packed catalog, or the same kinds over the embedded one. */
function workload(): { catalog: SegmentCatalog; calls: McpCall[] } {
  const places: LatLon[] = [];
  let catalog: SegmentCatalog;
  let ids: string[];
  if (values.index) {
    const stream = keepingPlaces(generateSegmentStream(SEGMENTS, 1), SEGMENTS / PLACES, places);
    while (stream.next().done !== true);
    catalog = openPackedCatalog(values.index);
    ids = Array.from({ length: IDS }, (_, k) => `synthetic-${1 + Math.floor((k * SEGMENTS) / IDS)}`);
  } else {
    const segments = loadEmbeddedSegments();
    catalog = createSegmentCatalog(segments);
    for (const segment of segments) {
      const start = segment.polyline[0];
      if (start) places.push({ lat: start.lat, lon: start.lon });
    }
    ids = segments.map((segment) => segment.id);
  }
  const finds = findCalls('2026-07-28', places);
  const gets = ids.map((id, k) =>
    call('2026-07-28', k + 1, 'tools/call', { name: 'get_segment', arguments: { segment_id: id } }),
  );
  const calls: McpCall[] = [];
  for (let i = 0; i < Math.max(finds.length, gets.length); i++) {
    const find = finds[i % finds.length];
    const get = gets[i % gets.length];
    if (find) calls.push(find);
    if (get) calls.push(get);
  }
  return { catalog, calls };
}

interface Space {
  spaceName: string;
  spaceUsedSize: number;
}
const used = (spaces: readonly Space[], name: string) =>
  spaces.find((space) => space.spaceName === name)?.spaceUsedSize ?? 0;
const OLD = ['old_space', 'large_object_space', 'code_space', 'trusted_space', 'trusted_large_object_space'];
const oldUsed = (spaces: readonly Space[]) => OLD.reduce((sum, name) => sum + used(spaces, name), 0);

async function main(): Promise<void> {
  const { catalog, calls } = workload();
  const settings = readSettings({});
  const clock = () => Date.UTC(2026, 6, 28, 8);
  const endpoint = createMcpEndpoint({
    deps: {
      catalog,
      geocoder: lazyGazetteer(),
      forecast: createForecastCache(createDemoForecast({ clock }), { clock }),
      now: clock,
    },
    api: settings.urls,
    mcp: { ...mcpGuardConfig(settings.mcp), ratePerMinute: 1e9, rateBurst: 1e9 },
    tools: PUBLIC_TOOLS,
  });
  let next = 0;
  const send = async (count: number): Promise<void> => {
    const worker = async () => {
      while (next < count) {
        const { headers, body } = calls[next++ % calls.length] ?? { headers: {}, body: '' };
        const request = new Request('http://localhost:3000/mcp', {
          method: 'POST',
          headers: { ...headers, host: 'localhost:3000' },
          body,
        });
        const text = await (await endpoint(request, { address: '127.0.0.1' })).text();
        if (!looksSuccessful(text)) throw new Error(`A call failed: ${text.slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
    next = 0;
  };
  // Every call once, so the forecast cache and the code are warm before anything is counted.
  await send(calls.length);
  const count = Number(values.calls);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  for (let round = 1; round <= Number(values.rounds); round++) {
    const youngNow = () => {
      const spaces = getHeapSpaceStatistics();
      const size = (name: string) => spaces.find((space) => space.space_name === name)?.space_used_size ?? 0;
      return size('new_space') + size('new_large_object_space');
    };
    const profiler = new GCProfiler();
    profiler.start();
    let youngAfter = youngNow();
    const cpu = process.cpuUsage();
    await send(count);
    const { user, system } = process.cpuUsage(cpu);
    const { statistics } = profiler.stop();
    let allocated = 0;
    let promoted = 0;
    let scavenges = 0;
    let majors = 0;
    for (const gc of statistics) {
      const before = gc.beforeGC.heapSpaceStatistics as Space[];
      const after = gc.afterGC.heapSpaceStatistics as Space[];
      // Young bytes allocated since the last collection: its use now, less what the last one left there.
      allocated += used(before, 'new_space') + used(before, 'new_large_object_space') - youngAfter;
      youngAfter = used(after, 'new_space') + used(after, 'new_large_object_space');
      if (gc.gcType === 'Scavenge') {
        scavenges += 1;
        promoted += Math.max(0, oldUsed(after) - oldUsed(before));
      } else if (gc.gcType === 'MarkSweepCompact') majors += 1;
    }
    allocated += youngNow() - youngAfter;
    const cpuS = (user + system) / 1e6;
    console.log(
      `round ${round}: ${count} calls, ${(count / cpuS).toFixed(0)} calls per CPU second; ` +
        `per call ${(allocated / count / 1024).toFixed(1)} KB allocated, ${(promoted / count / 1024).toFixed(2)} KB promoted ` +
        `(${mb(allocated)} MB and ${mb(promoted)} MB in all; ${scavenges} scavenges, ${majors} full collections)`,
    );
  }
}

await main();
