/**
 * Memory under MCP load (issue 21): `npm start`'s own node command, with
 * exactly the flags package.json gives it, serving a generated catalog of
 * 1,000,000 segments from a packed index (`WOS_SEGMENTS_FILE`), while
 * autocannon sends find_tailwind_segments and get_segment calls over 10
 * connections to 127.0.0.1 for a bounded time. Resident memory is read from
 * the server's /proc/<pid>/status: `VmRSS` every 250 ms (the steady figure is
 * the median of the second half of the load) and `VmHWM`, the peak since the
 * process started, at the end. Each run is a fresh server; the figures are
 * given per run and as a range. With `--split`, the server also loads
 * bench/memory-probe.ts (a Node `--import`, not a V8 flag) and the bench
 * prints how the resident memory divides: V8 heap (young and old
 * generation), external memory and array buffers (the catalog's columns).
 *
 * A measurement: a MISS still exits 0; only failed answers make the figures
 * invalid (exit 1). Runnable alone:
 * `node bench/mcp-memory.ts [--runs N] [--seconds S] [--split] [--index file.segidx]
 * [--places N] [--ids N]`
 * (`--index` reuses a packed catalog instead of packing one, for repeated
 * runs); `BENCH_NODE_FLAGS="--max-semi-space-size=32"` adds node flags, to
 * compare. `runMemoryBench` is the hook for `npm run bench`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { npmStartArgs, startNode, stopAll } from '../scripts/service/launch.ts';
import { runBenchCommand } from './command.ts';
import type { LatLon } from '../src/core/bearing.ts';
import { writePackedCatalog } from '../src/data/segments/pack.ts';
import { generateSegmentStream } from '../tests/support/synthetic-segments.ts';
import { call, checkTargets, findCalls, looksSuccessful, type McpCall, type McpTarget } from './mcp-calls.ts';
import type { MemorySample } from './memory-probe.ts';
import { keepingPlaces } from './mcp-world.ts';

/** The target: resident memory at 10 connections over the 1,000,000-segment catalog. */
export const MEMORY_TARGET_MB = 400;
const SEGMENTS = 1_000_000;
const SEED = 1;
/** Default spread: 50 places (10 segments each) and 200 ids; `--places` and `--ids` widen it. */
const PLACES = 50;
/** get_segment ids spread over the whole catalog, so polylines are read from every part of the file. */
const SEGMENT_IDS = 200;
const CONNECTIONS = 10;
const SAMPLE_MS = 250;
const PROBE = fileURLToPath(new URL('./memory-probe.ts', import.meta.url));
/** The bench is one client sending thousands of calls a second: the rate limit is lifted. */
const UNLIMITED = { WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' };

export interface MemoryBenchOptions {
  /** Fresh servers, one after the other. */
  readonly runs: number;
  /** Seconds of load per run. */
  readonly seconds: number;
  /** Load bench/memory-probe.ts into the server and print the split. */
  readonly split: boolean;
  /** A packed 1,000,000-segment index to reuse (made with seed 1), instead of packing one. */
  readonly index?: string;
  /** Extra node flags before npm start's own, to compare (e.g. `--max-semi-space-size=32`). */
  readonly nodeFlags: readonly string[];
  /** Places asked about (10 segments each) and segment ids asked for: how much the caches hold. */
  readonly places?: number;
  readonly ids?: number;
}

/** What `npm run bench` runs: two fresh servers, 20 s of load each, with the split (about 90 s in all). */
export const BENCH_MEMORY_OPTIONS: MemoryBenchOptions = { runs: 2, seconds: 20, split: true, nodeFlags: [] };

/** Packing (13–40 s), then per run: start, warm-up and the load. */
export function memoryBenchSeconds({ runs, seconds }: MemoryBenchOptions): number {
  return 60 + runs * (seconds + 40);
}

interface RunFigures {
  readonly warmMb: number;
  readonly steadyMb: number;
  readonly lastMb: number;
  readonly peakMb: number;
  readonly requests: number;
  /** CPU seconds the server used during the load. */
  readonly cpuSeconds: number;
  readonly failed: number;
  readonly split?: { warm: MemorySample; peak: MemorySample };
}

/** `VmRSS` and `VmHWM` of a process in MB, from /proc (Linux). */
function status(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * CPU seconds (user and system) a process has used, from /proc (Linux):
 * the calls a run serves depend on what else the machine runs, calls per
 * CPU second much less.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, fields 14 and 15 of the line (11 and 12 after the name), in USER_HZ (100 a second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The probe's samples from the thread that serves: the server's worker
 * thread under `npm start` (the highest thread id that wrote), else the main
 * thread. The main thread's own heap is then part of "other".
 */
function readSamples(file: string): MemorySample[] {
  try {
    const all = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as MemorySample);
    const serving = Math.max(0, ...all.map((sample) => sample.thread));
    return all.filter((sample) => sample.thread === serving);
  } catch {
    return [];
  }
}

/** find_tailwind_segments at the places and get_segment on spread ids, taking turns. */
function loadCalls(
  places: readonly LatLon[],
  ids: number,
): { find: McpTarget; get: McpTarget; mixed: McpCall[] } {
  const finds = findCalls('2026-07-28', places);
  const gets = Array.from({ length: ids }, (_, k) =>
    call('2026-07-28', k + 1, 'tools/call', {
      name: 'get_segment',
      arguments: { segment_id: `synthetic-${1 + Math.floor((k * SEGMENTS) / ids)}` },
    }),
  );
  const mixed: McpCall[] = [];
  for (let i = 0; i < Math.max(finds.length, gets.length); i++) {
    const find = finds[i % finds.length];
    const get = gets[i % gets.length];
    if (find) mixed.push(find);
    if (get) mixed.push(get);
  }
  return {
    find: { label: 'find_tailwind_segments', calls: finds },
    get: { label: 'get_segment', calls: gets },
    mixed,
  };
}

async function oneRun(
  index: string,
  places: readonly LatLon[],
  options: MemoryBenchOptions,
  probeFile: string,
): Promise<RunFigures> {
  const args = [...options.nodeFlags, ...(options.split ? ['--import', PROBE] : []), ...npmStartArgs()];
  const server = await startNode(args, {
    ...UNLIMITED,
    WOS_SEGMENTS_FILE: index,
    ...(options.split ? { BENCH_MEMORY_PROBE_FILE: probeFile } : {}),
  });
  try {
    const { find, get, mixed } = loadCalls(places, options.ids ?? SEGMENT_IDS);
    // Every body once: warms the forecast cache (demo forecast) and fails on any error answer.
    await checkTargets(server.baseUrl, [find, get]);
    await sleep(1000);
    const warmMb = status(server.pid).rss;
    const before = readSamples(probeFile);
    const samples: number[] = [];
    const cpuBefore = cpuSeconds(server.pid);
    const sampler = setInterval(() => {
      try {
        samples.push(status(server.pid).rss);
      } catch {
        // The server is gone; the load reports the failures.
      }
    }, SAMPLE_MS);
    const result = await autocannon({
      url: `${server.baseUrl}/mcp`,
      connections: CONNECTIONS,
      duration: options.seconds,
      // A copy of the headers: autocannon writes Content-Length into the object it is given.
      requests: mixed.map(({ headers, body }) => ({
        method: 'POST',
        path: '/mcp',
        headers: { ...headers },
        body,
      })),
      verifyBody: (body) => looksSuccessful(String(body)),
    });
    clearInterval(sampler);
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const { rss: lastMb, hwm: peakMb } = status(server.pid);
    const warmSample = before.at(-1);
    let peakSample: MemorySample | undefined;
    for (const sample of readSamples(probeFile).slice(before.length))
      if (sample.rss > (peakSample?.rss ?? 0)) peakSample = sample;
    return {
      warmMb,
      steadyMb: median(samples.slice(Math.floor(samples.length / 2))),
      lastMb,
      peakMb,
      requests: result.requests.total,
      cpuSeconds: cpu,
      failed: result.non2xx + result.errors + result.timeouts + result.mismatches,
      ...(warmSample && peakSample ? { split: { warm: warmSample, peak: peakSample } } : {}),
    };
  } finally {
    await server.stop();
  }
}

const whole = (value: number) => value.toFixed(0);
const range = (values: readonly number[]) => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? `${whole(low)} MB` : `${whole(low)}–${whole(high)} MB`;
};

function splitLine(label: string, s: MemorySample): string {
  const young = s.spaces['new_space'] ?? 0;
  const old =
    (s.spaces['old_space'] ?? 0) +
    (s.spaces['large_object_space'] ?? 0) +
    (s.spaces['code_space'] ?? 0) +
    (s.spaces['trusted_space'] ?? 0) +
    (s.spaces['trusted_large_object_space'] ?? 0) +
    (s.spaces['shared_large_object_space'] ?? 0);
  const rest = s.rss - s.heapTotal - s.external;
  return (
    `    ${label.padEnd(6)} rss ${whole(s.rss).padStart(4)}: V8 heap ${whole(s.heapTotal).padStart(4)} ` +
    `(young ${whole(young)}, old and the rest ${whole(old)}; ${whole(s.heapUsed)} in use), ` +
    `external ${whole(s.external)} (array buffers ${whole(s.arrayBuffers)}), ` +
    `other ${whole(rest)} (code, stacks, native)`
  );
}

/** Packs (or reuses) the catalog, measures `runs` fresh servers; false when an answer failed. */
export async function runMemoryBench(options: MemoryBenchOptions): Promise<boolean> {
  const command = ['node', ...options.nodeFlags, ...npmStartArgs()].join(' ');
  console.log(
    `\nMCP memory: ${command} over ${SEGMENTS.toLocaleString('en-US')} segments (packed index), ` +
      `find_tailwind_segments and get_segment over ${CONNECTIONS} connections, ${options.seconds} s per run`,
  );
  const dir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
  try {
    const places: LatLon[] = [];
    let index = options.index;
    const packStart = performance.now();
    if (index === undefined) {
      index = join(dir, `segments-${SEGMENTS}.segidx`);
      // Generated segments are valid by construction (the unit tests round-trip them through the schema).
      writePackedCatalog(
        index,
        keepingPlaces(
          generateSegmentStream(SEGMENTS, SEED),
          Math.floor(SEGMENTS / (options.places ?? PLACES)),
          places,
        ),
        {
          validate: false,
        },
      );
      console.log(`  packed in ${((performance.now() - packStart) / 1000).toFixed(1)} s`);
    } else {
      // The same places as packing would keep, without writing the file again.
      const stream = keepingPlaces(
        generateSegmentStream(SEGMENTS, SEED),
        Math.floor(SEGMENTS / (options.places ?? PLACES)),
        places,
      );
      while (stream.next().done !== true);
    }
    console.log(
      `  ${places.length} places (find_tailwind_segments, 10 segments each) and ` +
        `${options.ids ?? SEGMENT_IDS} segment ids (get_segment), taking turns`,
    );
    const runs: RunFigures[] = [];
    for (let run = 1; run <= options.runs; run++) {
      const figures = await oneRun(index, places, options, join(dir, `probe-${run}.jsonl`));
      runs.push(figures);
      console.log(
        `  run ${run}/${options.runs}: warm ${whole(figures.warmMb)} MB, steady ${whole(figures.steadyMb)} MB, ` +
          `last ${whole(figures.lastMb)} MB, peak (VmHWM) ${whole(figures.peakMb)} MB; ` +
          `${figures.requests.toLocaleString('en-US')} calls ` +
          `(${(figures.requests / figures.cpuSeconds).toFixed(0)} per server CPU second), ${figures.failed} failed`,
      );
      if (figures.split) {
        console.log(splitLine('warm', figures.split.warm));
        console.log(splitLine('peak', figures.split.peak));
      }
    }
    const peaks = runs.map(({ peakMb }) => peakMb);
    const worst = Math.max(...peaks);
    console.log(
      `  ${options.runs} ${options.runs === 1 ? 'run' : 'runs'}: warm ${range(runs.map(({ warmMb }) => warmMb))}, ` +
        `steady ${range(runs.map(({ steadyMb }) => steadyMb))}, peak ${range(peaks)} ` +
        `(target < ${MEMORY_TARGET_MB} MB resident: ${worst < MEMORY_TARGET_MB ? 'HIT' : 'MISS'})`,
    );
    const failed = runs.reduce((sum, { failed }) => sum + failed, 0);
    if (failed > 0) console.error(`\nMCP memory: ${failed} calls failed: the figures are not valid.`);
    return failed === 0;
  } finally {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '30' },
      split: { type: 'boolean', default: false },
      index: { type: 'string' },
      places: { type: 'string', default: String(PLACES) },
      ids: { type: 'string', default: String(SEGMENT_IDS) },
    },
  });
  const options: MemoryBenchOptions = {
    runs: Number(values.runs),
    seconds: Number(values.seconds),
    split: values.split,
    ...(values.index ? { index: values.index } : {}),
    places: Number(values.places),
    ids: Number(values.ids),
    nodeFlags: (process.env['BENCH_NODE_FLAGS'] ?? '').split(/\s+/).filter((flag) => flag !== ''),
  };
  await runBenchCommand('The memory bench', () => runMemoryBench(options), memoryBenchSeconds(options));
}
