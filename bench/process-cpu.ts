/**
 * Where a command's CPU goes, by kind of process: `node bench/process-cpu.ts -- npm test`.
 *
 * `time` undercounts a test run: Chromium's processes are not all reaped through the command's own
 * tree, so their CPU never reaches its children's total. This reads every process of the machine
 * from `/proc` twice a second while the command runs and adds each one's new CPU ticks to its kind
 * (Chromium by process type, Vitest's main process and workers, `npm start`, the build, other Node
 * processes by script), with the share of the machine that was busy. It counts other work on the
 * machine too, under its own kind, so a busy machine shows as such. A process that starts and ends
 * between two reads is missed: the figures are a floor.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const SAMPLE_MS = 500;
const TICKS_PER_S = 100;

/** What a process is, from its command line; Chromium's child processes rewrite theirs as one line. */
function kindOf(commandLine: string): string {
  if (/\bchrom(e|ium)\b/.test(commandLine)) {
    const type = /--type=([\w-]+)/.exec(commandLine)?.[1];
    return `chromium ${type ?? 'browser'}`;
  }
  if (commandLine.includes('vitest'))
    return /forks|workers/.test(commandLine) ? 'vitest worker' : 'vitest main';
  const script = /\b(scripts|bench|src)\/[\w./-]+\.ts\b/.exec(commandLine)?.[0];
  if (script) return `node ${script}`;
  if (/\bnode\b/.test(commandLine)) return 'node, other';
  return (
    commandLine
      .split(/[\s\0]/)[0]
      ?.split('/')
      .at(-1) || 'other'
  );
}

interface Seen {
  readonly kind: string;
  ticks: number;
}

function readProcesses(seen: Map<string, Seen>, totals: Map<string, number>): void {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      // A pid is reused over a long run: the process's start time tells two apart.
      const key = `${name}@${fields[19]}`;
      const known = seen.get(key);
      if (known) {
        totals.set(known.kind, (totals.get(known.kind) ?? 0) + ticks - known.ticks);
        known.ticks = ticks;
      } else {
        const kind = kindOf(readFileSync(`/proc/${name}/cmdline`, 'utf8'));
        seen.set(key, { kind, ticks });
        totals.set(kind, (totals.get(kind) ?? 0) + ticks);
      }
    } catch {
      // The process ended between the listing and the read.
    }
  }
}

/** Busy and total jiffies of the whole machine so far. */
function machineTicks(): { busy: number; total: number } {
  const values = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

async function main(command: readonly string[]): Promise<number> {
  const seen = new Map<string, Seen>();
  const before = new Map<string, number>();
  readProcesses(seen, before);
  const totals = new Map<string, number>();
  const machineStart = machineTicks();
  const started = performance.now();
  const child = spawn(command[0] ?? 'true', command.slice(1), { stdio: 'inherit' });
  const sampler = setInterval(() => readProcesses(seen, totals), SAMPLE_MS);
  const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  clearInterval(sampler);
  readProcesses(seen, totals);
  const wallS = (performance.now() - started) / 1000;
  const machine = machineTicks();
  const busyShare = (machine.busy - machineStart.busy) / (machine.total - machineStart.total);
  const rows = [...totals].filter(([, ticks]) => ticks >= TICKS_PER_S / 2).sort((a, b) => b[1] - a[1]);
  const sum = rows.reduce((total, [, ticks]) => total + ticks, 0) / TICKS_PER_S;
  console.log(
    `\n${command.join(' ')}: exit ${code}, ${wallS.toFixed(0)} s wall, ${sum.toFixed(0)} s CPU counted`,
  );
  console.log(`machine busy ${(busyShare * 100).toFixed(0)} % of ${availableParallelism()} cores`);
  for (const [kind, ticks] of rows) console.log(`${(ticks / TICKS_PER_S).toFixed(1).padStart(8)} s  ${kind}`);
  return code;
}

const separator = process.argv.indexOf('--');
const command = separator === -1 ? process.argv.slice(2) : process.argv.slice(separator + 1);
if (command.length === 0 || command[0] === '--help') {
  console.log('Usage: node bench/process-cpu.ts -- <command> [args…]');
  process.exit(command.length === 0 ? 2 : 0);
}
process.exit(await main(command));
