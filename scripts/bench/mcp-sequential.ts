/**
 * What one assistant waiting on one answer sees: a single keep-alive
 * connection, one request at a time, timed to the microsecond (autocannon
 * rounds latency to whole milliseconds, too coarse for answers that take a
 * few). The targets take turns request by request, so drift in the machine
 * hits the baseline and the tool call alike.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { McpMeasurement, McpTarget } from './mcp-load.ts';
import { answerProblem, type McpCall } from './mcp-requests.ts';

interface Timed {
  readonly ms: number;
  readonly problem: string | undefined;
}

function send(agent: Agent, url: URL, call: McpCall): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      url,
      { agent, method: 'POST', headers: { ...call.headers, 'content-length': Buffer.byteLength(call.body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - start;
          resolve({
            ms,
            problem: answerProblem(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

function summarize(
  label: string,
  samples: readonly number[],
  failures: number,
  seconds: number,
): McpMeasurement {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    label,
    requestsPerS: samples.length / seconds,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p97_5Ms: percentile(sorted, 97.5),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    failures,
  };
}

/**
 * Sends each target's next call in turn for `warmupS` (discarded), then for
 * `durationS`, and summarises each target's latencies. `requestsPerS` is
 * the target's own share of that one connection, not a throughput figure.
 */
export async function sequentialLatency(
  origin: string,
  targets: readonly McpTarget[],
  warmupS: number,
  durationS: number,
): Promise<McpMeasurement[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${origin}/mcp`);
  const samples = targets.map((): number[] => []);
  const failures = targets.map(() => 0);
  const firstProblem: string[] = [];
  try {
    for (const [phaseS, record] of [
      [warmupS, false],
      [durationS, true],
    ] as const) {
      const until = performance.now() + phaseS * 1000;
      for (let i = 0; performance.now() < until; i += 1) {
        for (const [t, target] of targets.entries()) {
          const call = target.calls[i % target.calls.length];
          if (call === undefined) continue;
          const { ms, problem } = await send(agent, url, call);
          if (problem !== undefined) {
            failures[t] = (failures[t] ?? 0) + 1;
            if (firstProblem.length === 0) firstProblem.push(`${target.label}: ${problem}`);
          } else if (record) samples[t]?.push(ms);
        }
      }
    }
  } finally {
    agent.destroy();
  }
  if (firstProblem[0] !== undefined) console.error(`  first failed answer: ${firstProblem[0]}`);
  return targets.map((target, t) => summarize(target.label, samples[t] ?? [], failures[t] ?? 0, durationS));
}
