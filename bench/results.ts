/**
 * The one results file of `npm run bench`: everything the bench prints is
 * also written to `bench/results.md`, under the date, commit, machine and
 * load it was measured at, so figures are read from a file the bench wrote
 * rather than copied into prose. Each run replaces the file; commit it with
 * the change it measures.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { format } from 'node:util';

/** The whole bench's figures. */
export const RESULTS_FILE = new URL('./results.md', import.meta.url);
/** A partial run's (`--rest`): its own file, so a few rows never replace the whole bench's record. */
export const REST_RESULTS_FILE = new URL('./results-rest.md', import.meta.url);
/** The discovery scale row alone (`--discovery-scale`): its own file, for the same reason. */
export const SCALE_RESULTS_FILE = new URL('./results-discovery-scale.md', import.meta.url);

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return dirty.trim() === '' ? head : `${head} with uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

/**
 * Starts copying `console.log` and `console.error` output; the returned function writes the
 * results file (with the load average at the end as well) and returns its path.
 */
export function recordResults(command: string, file: URL = RESULTS_FILE): (outcome: string) => string {
  const started = new Date();
  const loadBefore = load();
  const lines: string[] = [];
  for (const name of ['log', 'error'] as const) {
    const original = console[name].bind(console);
    console[name] = (...args: unknown[]) => {
      lines.push(format(...args));
      original(...args);
    };
  }
  return (outcome) => {
    const cpu = cpus();
    const text = [
      '# Bench results',
      '',
      `Written by \`${command}\` (bench/index.ts); do not edit by hand, run it again.`,
      '',
      `- Date: ${started.toISOString()} to ${new Date().toISOString()}`,
      `- Commit: ${commit()}`,
      `- Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${process.platform} ${process.arch}, Node ${process.version}`,
      `- Load average (1 / 5 / 15 min): ${loadBefore} at the start, ${load()} at the end`,
      `- Outcome: ${outcome}`,
      '',
      '```text',
      ...lines.join('\n').split('\n'),
      '```',
      '',
    ].join('\n');
    writeFileSync(file, text);
    return file.pathname;
  };
}
