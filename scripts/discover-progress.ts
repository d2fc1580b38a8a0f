/**
 * What `npm run segments:discover` shows while a build runs: on a terminal,
 * one line redrawn in place (stage, a bar, areas done of all, segments,
 * elapsed, estimated time left, resident memory); elsewhere (a log, CI), a
 * plain line every 10 s or 5 %, whichever comes later, and at each stage's
 * end. Then a summary (summaryLine). Hand-written: a bar is one line of
 * text, and the one progress package in the tree (`progress`, unkept since
 * 2017) is a transitive dependency, not ours.
 */
import { readFileSync } from 'node:fs';
import type { BuildProgress, BuildSummary } from '../src/data/discovery/discover-files.ts';

const STAGE_WORDS: Readonly<Record<BuildProgress['stage'], string>> = {
  ways: 'reading roads',
  nodes: 'reading node locations',
  blocks: 'cutting into blocks',
  areas: 'discovering areas',
};

/** Peak resident memory of this process, threads included: VmHWM on Linux, else the runtime's maxRSS. */
export function peakRssMb(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

const rssMb = () => process.memoryUsage.rss() / 2 ** 20;

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m} min ${String(s % 60).padStart(2, '0')} s`
    : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

const count = (n: number) => n.toLocaleString('en-GB');

export function progressReporter(options: {
  tty: boolean;
  write: (text: string) => void;
  now?: () => number;
}) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let stage: BuildProgress['stage'] | null = null;
  let stageStarted = started;
  let lastLine = -Infinity;
  let lastShare = -1;
  let drawn = 0;

  const shareOf = (p: BuildProgress) => (p.total > 0 ? Math.min(1, p.done / p.total) : 0);
  const describe = (p: BuildProgress) => {
    const share = shareOf(p);
    const elapsed = now() - stageStarted;
    const left = share > 0.02 && share < 1 ? duration((elapsed / share) * (1 - share)) : '…';
    const what =
      p.stage === 'areas'
        ? `${count(p.done)}/${count(p.total)} areas, ${count(p.segments)} segments`
        : `${(p.done / 2 ** 20).toFixed(0)}/${(p.total / 2 ** 20).toFixed(0)} MB`;
    return {
      share,
      text: `${what}, ${duration(now() - started)} elapsed, ETA ${left}, RSS ${rssMb().toFixed(0)} MB`,
    };
  };

  return {
    update(p: BuildProgress): void {
      if (p.stage !== stage) {
        if (options.tty && drawn > 0) options.write('\n');
        drawn = 0;
        stage = p.stage;
        stageStarted = now();
        lastShare = -1;
        lastLine = -Infinity;
      }
      // Only what is shown is worked out: reading the resident memory costs a system call.
      const share = shareOf(p);
      if (options.tty) {
        if (now() - lastLine < 100 && share < 1) return;
        lastLine = now();
        const { text } = describe(p);
        const width = 24;
        const full = Math.round(share * width);
        const line = `${STAGE_WORDS[p.stage]} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(share * 100).toFixed(0).padStart(3)} % ${text}`;
        options.write(`\r${line}${' '.repeat(Math.max(0, drawn - line.length))}`);
        drawn = line.length;
        return;
      }
      const due = now() - lastLine >= 10_000 && share - lastShare >= 0.05;
      if (!due && !(share >= 1 && lastShare < 1)) return;
      const { text } = describe(p);
      lastLine = now();
      lastShare = share;
      options.write(`${STAGE_WORDS[p.stage]}: ${(share * 100).toFixed(0)} %, ${text}\n`);
    },
    end(): void {
      if (options.tty && drawn > 0) options.write('\n');
      drawn = 0;
    },
  };
}

/** The one line that closes a build: what was made, how long it took, what it cost. */
export function summaryLine(summary: BuildSummary, where: string): string {
  const cpu = process.cpuUsage();
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const skipped = summary.skippedAreas > 0 ? ` (${count(summary.skippedAreas)} written before, skipped)` : '';
  return (
    `${summary.file}: ${count(summary.areas)} areas${skipped} in ${count(summary.blocks)} blocks, ` +
    `${count(summary.segments)} segments (${count(summary.climbs)} climbs, ${count(summary.stretches)} stretches) ` +
    `from ${count(summary.ways)} roads and ${count(summary.roadNodes)} road nodes → ${where}; ` +
    `${(summary.ms / 1000).toFixed(1)} s (reading ${(summary.readMs / 1000).toFixed(1)} s, CPU ${(summary.readCpuMs / 1000).toFixed(1)} s), ` +
    `CPU ${cpuS.toFixed(1)} s, peak RSS ${peakRssMb().toFixed(0)} MB`
  );
}
