/**
 * The MCP tables and verdicts. Absolute milliseconds are compared with the
 * issue's targets (they are what an assistant waits), and each tool call is
 * also shown as a ratio to `tools/list` on the same server in the same run,
 * which says how much of the time is the tool's own work rather than the
 * machine, the transport or the SDK.
 */
import type { BenchCatalog } from './mcp-catalog.ts';
import type { ColdCacheFigures } from './mcp-cold.ts';
import type { McpMeasurement } from './mcp-load.ts';
import type { StartedService } from './mcp-service.ts';

/** The targets for find_tailwind_segments, end to end over HTTP, warm cache. */
export const TARGET_P50_MS = 20;
export const TARGET_P99_MS = 50;
/** With a cold cache, one call may cost at most this many upstream forecast requests. */
export const TARGET_UPSTREAM_PER_CALL = 1;

const COLUMNS = [
  { title: 'target', width: 26 },
  { title: 'req/s', width: 8 },
  { title: 'p50 ms', width: 8 },
  { title: 'p90 ms', width: 8 },
  { title: 'p97.5 ms', width: 9 },
  { title: 'p99 ms', width: 8 },
  { title: 'max ms', width: 8 },
  { title: 'failed', width: 7 },
] as const;

function row(cells: readonly string[]): string {
  return COLUMNS.map(({ width }, i) =>
    i === 0 ? (cells[i] ?? '').padEnd(width) : (cells[i] ?? '').padStart(width),
  ).join(' ');
}

/** Two decimals below 10 ms, one above: autocannon's whole milliseconds print as they are. */
export const ms = (value: number): string =>
  Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1).replace(/\.?0+$/, '') : '–';

/** Prints one table of measurements under a heading. */
export function printMcpTable(heading: string, rows: readonly McpMeasurement[]): void {
  console.log(`\n${heading}\n`);
  console.log(row(COLUMNS.map(({ title }) => title)));
  console.log(row(COLUMNS.map(({ width }) => '-'.repeat(width))));
  for (const m of rows) {
    const rate = Math.round(m.requestsPerS).toLocaleString('en-US');
    console.log(
      row([
        m.label,
        rate,
        ms(m.p50Ms),
        ms(m.p90Ms),
        ms(m.p97_5Ms),
        ms(m.p99Ms),
        ms(m.maxMs),
        String(m.failures),
      ]),
    );
  }
}

const ratio = (a: number, b: number): string => (b > 0 ? (a / b).toFixed(2) : '–');
const wholeMs = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

/** What loading the catalog costs, step by step, and one index query. */
export function printCatalog(
  { segments, timings: t, bytes }: BenchCatalog,
  places: number,
  nearMicros: number,
): void {
  console.log(
    `  catalog: ${segments.length.toLocaleString('en-US')} segments generated in ${wholeMs(t.generateMs)}, ` +
      `written as ${(bytes / 1024 / 1024).toFixed(1)} MB of GeoJSON in ${wholeMs(t.formatMs)}`,
  );
  const total = t.readMs + t.jsonParseMs + t.validateMs + t.indexMs;
  console.log(
    `  loading it as the server does: ${wholeMs(total)} = read ${wholeMs(t.readMs)} + JSON.parse ${wholeMs(t.jsonParseMs)}` +
      ` + zod validation ${wholeMs(t.validateMs)} + index ${wholeMs(t.indexMs)}`,
  );
  console.log(`  catalog.near (25 km, limit 10), mean over ${places} places: ${nearMicros.toFixed(1)} µs`);
}

/** Start-up with the large catalog against start-up with the embedded one, and their memory. */
export function printStart(
  embedded: StartedService,
  large: StartedService,
  rssMb: readonly (number | undefined)[],
): void {
  const seconds = (value: number): string => `${(value / 1000).toFixed(2)} s`;
  const [small, big] = rssMb.map((mb) => (mb === undefined ? '?' : `${Math.round(mb)} MB`));
  console.log(
    `  npm start to /health 200: embedded catalog ${seconds(embedded.startMs)}, 100k catalog ` +
      `${seconds(large.startMs)} (ratio ${ratio(large.startMs, embedded.startMs)}); resident memory ${small} vs ${big}`,
  );
}

const verdict = (value: number, limit: number): string => (value <= limit ? 'PASS' : 'MISS');

/** A tool row against its baseline row, and the tool row against the targets. */
export interface Comparison {
  readonly mode: string;
  readonly tool: McpMeasurement;
  readonly baseline: McpMeasurement;
}

/** The ratio lines and the PASS/MISS lines for each comparison. */
export function printVerdicts(comparisons: readonly Comparison[]): void {
  console.log('\nfind_tailwind_segments / tools/list (same server, protocol and run):');
  for (const { mode, tool, baseline } of comparisons) {
    console.log(
      `  ${mode.padEnd(34)} p50 ${ratio(tool.p50Ms, baseline.p50Ms).padStart(6)}   p99 ${ratio(tool.p99Ms, baseline.p99Ms).padStart(6)}`,
    );
  }
  console.log(
    `\nTarget (warm cache, end to end over HTTP): p50 <= ${TARGET_P50_MS} ms, p99 <= ${TARGET_P99_MS} ms`,
  );
  for (const { mode, tool } of comparisons) {
    console.log(
      `  ${mode.padEnd(34)} p50 ${ms(tool.p50Ms).padStart(6)} ms ${verdict(tool.p50Ms, TARGET_P50_MS)}` +
        `   p99 ${ms(tool.p99Ms).padStart(6)} ms ${verdict(tool.p99Ms, TARGET_P99_MS)}`,
    );
  }
  console.log(
    "  (under load each request also queues behind the other connections' on one event loop: " +
      'latency ≈ connections ÷ req/s, so these rows follow the connection count)',
  );
}

function pick(sorted: readonly number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/** The cold-cache upstream count against the target, and our side of a cold call against a warm one. */
export function printColdCache(figures: ColdCacheFigures): void {
  const { coldMs, warmMs } = figures;
  console.log(
    `\nCold cache (in-process through the real endpoint, Open-Meteo client + cache, counting fake upstream; ` +
      `${figures.calls} places, a new cache for each):`,
  );
  console.log(
    `  upstream requests per call: max ${figures.maxUpstream}, mean ${figures.meanUpstream.toFixed(2)} ` +
      `(target <= ${TARGET_UPSTREAM_PER_CALL}: ${verdict(figures.maxUpstream, TARGET_UPSTREAM_PER_CALL)}); ` +
      `the same call again within the hour: ${figures.repeatUpstream} requests in all`,
  );
  console.log(
    `  locations per upstream request: mean ${figures.meanLocations.toFixed(1)} ` +
      `(segments per answer: mean ${figures.meanSegments.toFixed(1)})`,
  );
  console.log(
    `  our side of a call, cold:  p50 ${ms(pick(coldMs, 50))} ms, p90 ${ms(pick(coldMs, 90))} ms, max ${ms(pick(coldMs, 100))} ms`,
  );
  console.log(
    `  the same call, warm:       p50 ${ms(pick(warmMs, 50))} ms, p90 ${ms(pick(warmMs, 90))} ms, max ${ms(pick(warmMs, 100))} ms` +
      `   (cold / warm p50: ${ratio(pick(coldMs, 50), pick(warmMs, 50))})`,
  );
}
