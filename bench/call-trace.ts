/**
 * Which project files one warm call runs, and where it crosses a layer: one
 * `GET /v1/segments` through the composition root's REST replier and one
 * `find_tailwind_segments` through its MCP service, as `npm start` hands
 * them over (the Node listener in front is left out: it is the same for
 * every path). Built from the demo settings, so no network is reached.
 *
 * Files: V8's precise coverage (call counts), reset after a warm-up, over
 * exactly one call: every project file with a function that ran.
 * Crossings: a sampled CPU profile over many repetitions of the same call;
 * each caller → callee edge between project files whose folders lie in
 * different layers (the layers of `eslint.config.js`) is one crossing,
 * counted once per file pair and grouped by the pair of layers. A sample's
 * stack read as its layers in order (repeats merged) shows a call going down
 * and back up (`rest → app → rest`). Sampling can miss a very short callee,
 * so the crossings are a floor; the file count is exact.
 *
 * `node bench/call-trace.ts [--repeat N] [--files]` (`--files` also lists
 * each call's files, its edges under their boundary and its layer paths)
 */
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LAYERS } from '../eslint.config.js';
import { createApp } from '../src/app/app.ts';
import { readSettings } from '../src/app/settings.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { findCalls } from './mcp-calls.ts';

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '300' }, files: { type: 'boolean', default: false } },
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SITE = new Set(['pages', 'components', 'layouts']);

/** The project path of a script URL, or undefined for dependencies, Node and this bench. */
function projectFile(url: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = relative(ROOT, fileURLToPath(url));
  return path.startsWith('src/') || path.startsWith('api/') ? path : undefined;
}

/** The layer element of a project file (its folder under src/, or api). */
function elementOf(path: string): string {
  if (path.startsWith('api/')) return 'api';
  const folder = path.split('/')[1] ?? '';
  return SITE.has(folder) ? 'site' : folder;
}

/** The pair of layer elements an edge `caller → callee` crosses. */
function boundaryOf(edge: string): string {
  const [from = '', to = ''] = edge.split(' → ');
  return `${elementOf(from)} → ${elementOf(to)}`;
}

const layerIndex = new Map<string, number>(
  (LAYERS as string[][]).flatMap((layer, index) => layer.map((element) => [element, index] as const)),
);

const app = createApp(readSettings({}));
const service = await app.mcp();
// At the start of the first embedded segment, so the list holds segments within the radius.
const start = loadEmbeddedSegments()[0]?.polyline[0] ?? { lat: 41.98, lon: 2.82 };
const restHref = `http://localhost:3000/v1/segments?lat=${start.lat}&lon=${start.lon}&radius_km=25&limit=10`;
const [toolCall] = findCalls('2026-07-28', [start]);
if (!toolCall) throw new Error('no call');

/** Each call from its own address, so no per-address limit refuses the repetitions. */
let calls = 0;
const nextAddress = () => `10.${(++calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;

async function restOnce(): Promise<void> {
  const reply = await app.restReplier('GET', restHref, nextAddress());
  if (reply.status !== 200) throw new Error(`GET /v1/segments: ${reply.status} ${String(reply.body)}`);
}

async function mcpOnce(): Promise<void> {
  const request = new Request('http://localhost:3000/mcp', {
    method: 'POST',
    headers: { ...toolCall?.headers, host: 'localhost:3000' },
    body: toolCall?.body ?? '',
  });
  const response = await service.handle(request, { address: nextAddress() });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true')) throw new Error(text.slice(0, 300));
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');

interface Coverage {
  result: { url: string; functions: { ranges: { count: number }[] }[] }[];
}

/** The project files with a function that ran during `run`, after `warm` calls first. */
async function filesOf(run: () => Promise<void>): Promise<string[]> {
  for (let i = 0; i < 20; i++) await run();
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await session.post('Profiler.takePreciseCoverage');
  await run();
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
  await session.post('Profiler.stopPreciseCoverage');
  const files = result
    .filter(({ functions }) => functions.some(({ ranges }) => (ranges[0]?.count ?? 0) > 0))
    .flatMap(({ url }) => projectFile(url) ?? []);
  return [...new Set(files)].sort();
}

interface ProfileNode {
  id: number;
  callFrame: { url: string };
  children?: number[];
}

/** Cross-layer caller → callee file pairs and the layer paths of the sampled stacks. */
async function crossingsOf(run: () => Promise<void>, repeat: number) {
  await session.post('Profiler.setSamplingInterval', { interval: 20 });
  await session.post('Profiler.start');
  for (let i = 0; i < repeat; i++) await run();
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const edges = new Set<string>();
  const paths = new Set<string>();
  /** Walks the tree carrying the nearest project frame above and the layers so far. */
  const walk = (id: number, caller: string | undefined, layers: string[]) => {
    const node = byId.get(id);
    if (!node) return;
    const file = projectFile(node.callFrame.url);
    let next = layers;
    if (file !== undefined) {
      if (caller !== undefined && elementOf(caller) !== elementOf(file)) edges.add(`${caller} → ${file}`);
      if (layers.at(-1) !== elementOf(file)) next = [...layers, elementOf(file)];
    }
    const children = node.children ?? [];
    if (children.length === 0 && next.length > 1) paths.add(next.join(' → '));
    for (const child of children) walk(child, file ?? caller, next);
  };
  walk(profile.nodes[0]?.id ?? 1, undefined, []);
  const byBoundary = new Map<string, number>();
  for (const edge of edges) byBoundary.set(boundaryOf(edge), (byBoundary.get(boundaryOf(edge)) ?? 0) + 1);
  const upward = [...edges].filter((edge) => {
    const [from = '', to = ''] = edge.split(' → ');
    return (layerIndex.get(elementOf(to)) ?? 0) >= (layerIndex.get(elementOf(from)) ?? 0);
  });
  return { edges: [...edges].sort(), byBoundary, upward, paths: [...paths].sort() };
}

const repeat = Number(values.repeat);
for (const [label, run] of [
  ['GET /v1/segments', restOnce],
  ['find_tailwind_segments', mcpOnce],
] as const) {
  const files = await filesOf(run);
  const { edges, byBoundary, upward, paths } = await crossingsOf(run, repeat);
  const layers = [...new Set(files.map(elementOf))];
  console.log(`\n${label}: ${files.length} project files in ${layers.length} folders (${layers.join(', ')})`);
  if (values.files) for (const file of files) console.log(`  ${file}`);
  console.log(`  ${edges.length} cross-layer call edges (file pairs), by boundary:`);
  for (const [boundary, count] of [...byBoundary].sort()) {
    console.log(`    ${boundary}: ${count}`);
    if (values.files) {
      for (const edge of edges.filter((e) => boundaryOf(e) === boundary)) console.log(`      ${edge}`);
    }
  }
  console.log(`  ${upward.length} of them to the same or a higher layer:`);
  for (const edge of upward) console.log(`    ${edge}`);
  const longest = paths.reduce((a, b) => (b.split(' → ').length > a.split(' → ').length ? b : a), '');
  console.log(`  ${paths.length} distinct layer paths of sampled stacks; the longest: ${longest}`);
  if (values.files) for (const path of paths) console.log(`    ${path}`);
}
session.disconnect();
process.exit(0);
