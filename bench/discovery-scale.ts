/**
 * The discovery scale row of `npm run bench`: `npm run segments:discover --
 * --osm … --dem … --out …` over K copies of the shipped Andorra extract
 * (scale-inputs.ts builds them with osmium-tool, or finds them built), for
 * K = 1, 16, 64 and 256: wall time, CPU seconds (every thread), peak
 * resident memory, segments, areas per minute, the machine's load beside
 * each, then the ratios 256 : 64 of time and memory and a straight-line fit
 * of CPU seconds against the input's size, extrapolated to 300 MB and 1.3 GB.
 * Each K runs in a process of its own, whose summary line gives its own CPU
 * and peak RSS (VmHWM, so nothing of this process counts). Runnable alone:
 * `npm exec -- node bench/discovery-scale.ts [--copies 1,16,64,256,1280] [--keep]`
 * (`--keep` keeps the generated inputs; they are deleted otherwise, the
 * output always).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildScaleInput, hasOsmium, removeScaleInput } from './scale-inputs.ts';
import { table } from './table.ts';

export const SCALE_COPIES = [1, 16, 64, 256] as const;
/** Per K: the K=256 row takes 2 minutes on two idle cores, the input's build about as long. */
export const SCALE_BENCH_SECONDS = 30 * 60;
const CLI = fileURLToPath(new URL('../scripts/segments-discover.ts', import.meta.url));

interface ScaleRow {
  readonly copies: number;
  readonly mb: number;
  readonly roadNodes: number;
  readonly areas: number;
  readonly segments: number;
  readonly parsed: number;
  readonly wallS: number;
  readonly cpuS: number;
  readonly readS: number;
  readonly readCpuS: number;
  readonly rssMb: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

const load1 = () => loadavg()[0] ?? 0;
const number = (text: string | undefined) => Number((text ?? 'NaN').replaceAll(',', ''));

/** Runs the CLI over one input in a child process and reads its summary line. */
async function runOne(copies: number, keep: boolean): Promise<ScaleRow> {
  const input = await buildScaleInput(copies);
  const out = join(tmpdir(), `wos-scale-out-${process.pid}-${copies}.geojson`);
  const loadBefore = load1();
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, '--osm', input.pbf, '--dem', input.demDir, '--out', out], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WOS_DISCOVERY: 'seed', DATABASE_URL: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallS = (performance.now() - started) / 1000;
  const loadAfter = load1();
  try {
    if (code !== 0)
      throw new Error(`K=${copies}: the CLI exited ${code}: ${stderr.trim().split('\n').at(-1)}`);
    const summary =
      /: ([\d,]+) areas.* ([\d,]+) segments .* and ([\d,]+) road nodes .*; ([\d.]+) s \(reading ([\d.]+) s, CPU ([\d.]+) s\), CPU ([\d.]+) s, peak RSS (\d+) MB/.exec(
        stdout,
      );
    if (!summary) throw new Error(`K=${copies}: no summary line in:\n${stdout}`);
    // The output parses, and holds what the summary says.
    const parsed = (JSON.parse(readFileSync(out, 'utf8')) as { features: unknown[] }).features.length;
    return {
      copies,
      mb: input.bytes / 1e6,
      roadNodes: number(summary[3]),
      areas: number(summary[1]),
      segments: number(summary[2]),
      parsed,
      wallS,
      cpuS: number(summary[7]),
      readS: number(summary[5]),
      readCpuS: number(summary[6]),
      rssMb: number(summary[8]),
      loadBefore,
      loadAfter,
    };
  } finally {
    rmSync(out, { force: true });
    if (!keep) removeScaleInput(input);
  }
}

/** Least squares of y against x: intercept and slope. */
function fit(points: readonly (readonly [number, number])[]): { a: number; b: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const b = sxx > 0 ? sxy / sxx : 0;
  return { a: my - b * mx, b };
}

export async function runScaleBench(
  copies: readonly number[] = SCALE_COPIES,
  keep = false,
): Promise<boolean> {
  console.log(
    '\nDiscovery at scale: npm run segments:discover over K copies of the Andorra extract (osmium-tool merges them), 2 workers:',
  );
  if (!hasOsmium()) {
    console.log(
      'skipped: osmium-tool is not installed (apt-get install osmium-tool); the CLI itself does not need it.',
    );
    return true;
  }
  const rows: ScaleRow[] = [];
  for (const k of copies) {
    const row = await runOne(k, keep);
    rows.push(row);
    console.log(
      `K=${k}: ${row.wallS.toFixed(1)} s wall, ${row.cpuS.toFixed(1)} s CPU, ${row.rssMb} MB peak RSS, ${row.segments} segments (load ${row.loadBefore.toFixed(2)} → ${row.loadAfter.toFixed(2)})`,
    );
  }
  console.log(
    table(
      [
        'K',
        'PBF MB',
        'road nodes',
        'areas',
        'segments',
        'wall s',
        'CPU s',
        'reading s (CPU)',
        'peak RSS MB',
        'areas/min',
        'load 1 min',
      ],
      rows.map((r) => [
        String(r.copies),
        r.mb.toFixed(1),
        r.roadNodes.toLocaleString('en-GB'),
        r.areas.toLocaleString('en-GB'),
        r.segments.toLocaleString('en-GB'),
        r.wallS.toFixed(1),
        r.cpuS.toFixed(1),
        `${r.readS.toFixed(1)} (${r.readCpuS.toFixed(1)})`,
        String(r.rssMb),
        ((r.areas / r.wallS) * 60).toFixed(0),
        `${r.loadBefore.toFixed(1)}–${r.loadAfter.toFixed(1)}`,
      ]),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    ),
  );
  const byK = new Map(rows.map((r) => [r.copies, r]));
  const [k64, k256] = [byK.get(64), byK.get(256)];
  if (k64 && k256) {
    console.log(
      `Ratios 256 : 64: wall ${(k256.wallS / k64.wallS).toFixed(2)}, CPU ${(k256.cpuS / k64.cpuS).toFixed(2)} (target <= 4.5), ` +
        `peak RSS ${(k256.rssMb / k64.rssMb).toFixed(2)} (target <= 1.5); K=256 wall ${k256.wallS.toFixed(0)} s (target <= 120 s on two idle cores)`,
    );
  }
  if (rows.length >= 2) {
    const cpu = fit(rows.map((r) => [r.mb, r.cpuS] as const));
    const at = (mb: number) => `${((cpu.a + cpu.b * mb) / 60).toFixed(1)} min`;
    console.log(
      `CPU fit: ${cpu.a.toFixed(1)} s + ${cpu.b.toFixed(3)} s per MB of PBF; at 300 MB ${at(300)}, at 1.3 GB ${at(1300)} of CPU ` +
        `(synthetic copies sit in blocks of their own; a dense country's blocks re-read their 30 km margins, see decision 0046)`,
    );
  }
  const bad = rows.filter((r) => r.parsed !== r.segments);
  for (const r of bad)
    console.error(`K=${r.copies}: the output holds ${r.parsed} features, the summary says ${r.segments}.`);
  return bad.length === 0;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--copies');
  const copies = at >= 0 ? (args[at + 1] ?? '').split(',').map(Number) : [...SCALE_COPIES];
  const ok = await runScaleBench(copies, args.includes('--keep'));
  process.exit(ok ? 0 : 1);
}
