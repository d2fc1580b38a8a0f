/**
 * How long a fresh Node process takes to load a generated catalog, and how
 * much memory it holds then: the packed index (`WOS_SEGMENTS_FILE` naming a
 * `.segidx`) next to the GeoJSON file it replaces, at 100,000 and 1,000,000
 * segments. Each figure is the median of three fresh processes, timed from
 * process start (module loading included) to the first `near` answer; the
 * memory figure is the process's peak resident set (`VmHWM`, Linux), not
 * a snapshot. A measurement, not a test: it prints and exits 0.
 * Runnable alone: `node bench/catalog-load.ts [counts…]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { generateSegments, generateSegmentStream } from '../tests/support/synthetic-segments.ts';
import { formatFeatureCollection, segmentToFeature } from '../src/data/segments/geojson.ts';
import { writePackedCatalog } from '../src/data/segments/pack.ts';

/** Writing and packing 100,000 and 1,000,000 segments and three fresh processes each, at most. */
export const CATALOG_LOAD_SECONDS = 300;

/** The issue's targets for 1,000,000 segments. */
export const TARGET_LOAD_MS = 1000;
export const TARGET_RSS_MB = 300;
/** Above this, the GeoJSON text passes V8's longest string (~512 MB) and cannot load at all. */
const GEOJSON_LIMIT = 200_000;
const RUNS = 3;
const LOAD_MODULE = fileURLToPath(new URL('../src/data/segments/open-catalog.ts', import.meta.url));

export interface LoadFigure {
  /** Importing the catalog modules (for a .ts checkout, mostly Node's type stripping warming up). */
  readonly importMs: number;
  /** Opening the catalog and answering the first `near`. */
  readonly loadMs: number;
  readonly sinceStartMs: number;
  readonly peakRssMb: number;
}

/** One fresh process: imports the loader, loads `file`, answers one query, reports. */
function freshLoad(file: string): LoadFigure {
  const script = `
    import { readFileSync } from 'node:fs';
    // VmHWM starts afresh at exec; maxRSS would carry this parent's peak over.
    const peakKb = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    const begin = performance.now();
    const { openSegmentCatalog } = await import(${JSON.stringify(LOAD_MODULE)});
    const imported = performance.now();
    const catalog = await openSegmentCatalog(${JSON.stringify(file)});
    catalog.near({ lat: 45, lon: 6 }, 25000, 10);
    const end = performance.now();
    console.log(JSON.stringify({
      importMs: imported - begin,
      loadMs: end - imported,
      sinceStartMs: end,
      peakRssMb: peakKb() / 1024,
    }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as LoadFigure;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function medianLoad(file: string): LoadFigure {
  const runs = Array.from({ length: RUNS }, () => freshLoad(file));
  return {
    importMs: median(runs.map((r) => r.importMs)),
    loadMs: median(runs.map((r) => r.loadMs)),
    sinceStartMs: median(runs.map((r) => r.sinceStartMs)),
    peakRssMb: median(runs.map((r) => r.peakRssMb)),
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const row = (label: string, size: number, f: LoadFigure) =>
  `  ${label.padEnd(30)} ${mb(size).padStart(8)} ${f.sinceStartMs.toFixed(0).padStart(8)} ms ` +
  `${f.importMs.toFixed(0).padStart(8)} ms ${f.loadMs.toFixed(0).padStart(8)} ms ${f.peakRssMb.toFixed(0).padStart(8)} MB`;

/** Writes each catalog, measures it in fresh processes, prints one row per file. */
export function runCatalogLoadBench(counts: readonly number[] = [100_000, 1_000_000]): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-catalog-'));
  try {
    console.log(`\nCatalog load in a fresh process (median of ${RUNS}; peak RSS):`);
    console.log(
      `  ${'file'.padEnd(30)} ${'size'.padStart(8)} ${'ready'.padStart(11)} ${'imports'.padStart(11)} ` +
        `${'load'.padStart(11)} ${'peak RSS'.padStart(11)}`,
    );
    console.log('  (ready = process start to first answer; load = opening the file and the first answer)');
    for (const count of counts) {
      const label = count.toLocaleString('en-US');
      const packed = join(dir, `segments-${count}.segidx`);
      const packStart = performance.now();
      writePackedCatalog(packed, generateSegmentStream(count, 1));
      const packS = (performance.now() - packStart) / 1000;
      console.log(`  (packed ${label} segments with validation in ${packS.toFixed(1)} s)`);
      if (count <= GEOJSON_LIMIT) {
        const geojson = join(dir, `segments-${count}.geojson`);
        writeFileSync(geojson, formatFeatureCollection(generateSegments(count, 1).map(segmentToFeature)));
        console.log(row(`GeoJSON, ${label}`, statSync(geojson).size, medianLoad(geojson)));
        rmSync(geojson);
      } else {
        console.log(`  ${`GeoJSON, ${label}`.padEnd(30)} cannot load: the text exceeds V8's string limit`);
      }
      const figure = medianLoad(packed);
      const verdict =
        count >= 1_000_000
          ? figure.loadMs <= TARGET_LOAD_MS && figure.peakRssMb <= TARGET_RSS_MB
            ? '  HIT'
            : `  MISS (target ≤ ${TARGET_LOAD_MS} ms, ≤ ${TARGET_RSS_MB} MB)`
          : '';
      console.log(row(`packed, ${label}`, statSync(packed).size, figure) + verdict);
      rmSync(packed);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const counts = process.argv.slice(2).map(Number);
  runCatalogLoadBench(counts.length > 0 ? counts : undefined);
}
