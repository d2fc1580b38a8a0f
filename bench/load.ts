/**
 * Load generation with autocannon's programmatic API, against 127.0.0.1 only, for the REST and
 * the MCP rows alike. Each measured run follows its own warm-up, and the targets alternate
 * (baseline, service, baseline, service) so that drift in the machine hits all of them. Every
 * round's figures are kept: the MCP rows report the best throughput of each target, the REST rows
 * the median and range over the rounds (`summarizeRounds`), so one noisy round cannot decide.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** What to run; durations in seconds. */
export interface LoadSettings {
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
  readonly pipelining: number;
  readonly rounds: number;
}

/** A label, the URL, and optionally the requests each connection cycles through. */
export interface Target {
  readonly label: string;
  readonly url: string;
  readonly requests?: autocannon.Request[];
  /** Checks every answer body: a JSON-RPC or tool error still comes with status 200. */
  readonly verifyBody?: (body: string) => boolean;
  /** The server's process id, to report its CPU time per request (Linux). */
  readonly pid?: number;
}

/** One measured run's throughput and latency (ms). */
export interface RoundFigures {
  readonly requestsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /**
   * The server's CPU time (user and system) per answered request in µs, where it could be read:
   * on a machine shared with other work this moves far less than throughput, which also counts
   * the time the server waited for a core.
   */
  readonly cpuUsPerRequest?: number;
}

/** Throughput and latency (ms) from the best run; failure counts summed over all measured runs. */
export interface Measurement {
  readonly label: string;
  readonly requestsPerS: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p97_5Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly non2xx: number;
  /** Socket errors. */
  readonly errors: number;
  /** Timeouts and bodies `verifyBody` refused. */
  readonly otherFailures: number;
  /** Every measured run of this target, in round order. */
  readonly rounds: readonly RoundFigures[];
}

/** Every failed request of a measurement. */
export const failures = (m: Measurement): number => m.non2xx + m.errors + m.otherFailures;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive whole number, got "${text}".`);
  }
  return value;
}

/**
 * Defaults: 10 s (`BENCH_DURATION`) measured after 2 s of warm-up, pipelining 1, `rounds` rounds
 * (two for the MCP rows, which keep the best), and the connections from `connectionsVariable` (50
 * for `BENCH_CONNECTIONS`, the REST rows).
 */
export function settingsFromEnv(
  env: NodeJS.ProcessEnv,
  connectionsVariable = 'BENCH_CONNECTIONS',
  connections = 50,
  rounds = 2,
): LoadSettings {
  return {
    durationS: positiveInteger(env, 'BENCH_DURATION', 10),
    warmupS: 2,
    connections: positiveInteger(env, connectionsVariable, connections),
    pipelining: 1,
    rounds,
  };
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** A median with the lowest and highest value it was taken from. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** The longest the load phase can take, for a watchdog. */
export function loadSeconds(settings: LoadSettings, targets: number): number {
  return settings.rounds * targets * (settings.warmupS + settings.durationS);
}

/** Clock ticks per second of `/proc/<pid>/stat` times: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_S = 100;

/** A process's user plus system CPU time in seconds from /proc (Linux), or undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_S : undefined;
  } catch {
    return undefined;
  }
}

async function measure(target: Target, settings: LoadSettings): Promise<Measurement> {
  const fire = (duration: number) =>
    autocannon({
      url: target.url,
      connections: settings.connections,
      pipelining: settings.pipelining,
      duration,
      ...(target.requests ? { requests: target.requests } : {}),
      ...(target.verifyBody ? { verifyBody: (body) => target.verifyBody?.(String(body)) === true } : {}),
    });
  await fire(settings.warmupS);
  const cpuBefore = cpuSeconds(target.pid);
  const result = await fire(settings.durationS);
  const cpuAfter = cpuSeconds(target.pid);
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
      ? undefined
      : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  const { latency } = result;
  return {
    label: target.label,
    requestsPerS: result.requests.average,
    p50Ms: latency.p50,
    p90Ms: latency.p90,
    p97_5Ms: latency.p97_5,
    p99Ms: latency.p99,
    maxMs: latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    otherFailures: result.timeouts + result.mismatches,
    rounds: [
      {
        requestsPerS: result.requests.average,
        p50Ms: latency.p50,
        p99Ms: latency.p99,
        ...(cpuUsPerRequest === undefined ? {} : { cpuUsPerRequest }),
      },
    ],
  };
}

function keepBest(previous: Measurement | undefined, next: Measurement): Measurement {
  if (previous === undefined) return next;
  const best = next.requestsPerS > previous.requestsPerS ? next : previous;
  return {
    ...best,
    non2xx: previous.non2xx + next.non2xx,
    errors: previous.errors + next.errors,
    otherFailures: previous.otherFailures + next.otherFailures,
    rounds: [...previous.rounds, ...next.rounds],
  };
}

/**
 * Runs every target once per round, printing each run, and returns the best of each with every round.
 * Each round starts one target later than the one before (the order turned, not shuffled): no target
 * always runs first after a pause or always right after the same neighbour, while targets listed
 * together still run back to back.
 */
export async function alternate(targets: readonly Target[], settings: LoadSettings): Promise<Measurement[]> {
  const best = new Map<string, Measurement>();
  for (let round = 1; round <= settings.rounds; round += 1) {
    const start = (round - 1) % targets.length;
    for (const target of [...targets.slice(start), ...targets.slice(0, start)]) {
      const m = await measure(target, settings);
      const rate = Math.round(m.requestsPerS).toLocaleString('en-US');
      const cpu = m.rounds[0]?.cpuUsPerRequest;
      console.log(
        `  round ${round}/${settings.rounds}  ${target.label.padEnd(24)} ${rate.padStart(9)} req/s  ` +
          `p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms${cpu === undefined ? '' : `  server CPU ${cpu.toFixed(1)} µs/req`}`,
      );
      best.set(target.label, keepBest(best.get(target.label), m));
    }
  }
  return targets.map(({ label }) => {
    const measurement = best.get(label);
    if (measurement === undefined) throw new Error(`No measurement for ${label}.`);
    return measurement;
  });
}
