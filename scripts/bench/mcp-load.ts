/**
 * MCP load with autocannon: POSTs to /mcp cycling through a target's bodies,
 * targets alternating round by round like load.ts, and every answer body
 * checked (a JSON-RPC error or a tool error still has status 200, so status
 * alone would let broken answers pass as fast ones).
 */
import autocannon from 'autocannon';
import type { LoadSettings } from './load.ts';
import { looksSuccessful, type McpCall } from './mcp-requests.ts';

/** What autocannon also takes and returns, beyond the slice declared in autocannon.d.ts. */
type Options = autocannon.Options & { readonly verifyBody: (body: string) => boolean };
type Result = autocannon.Result & {
  readonly mismatches: number;
  readonly latency: autocannon.Histogram & { readonly p97_5: number };
};

/** A label and the calls one connection cycles through. */
export interface McpTarget {
  readonly label: string;
  readonly calls: readonly McpCall[];
}

/** Latency in milliseconds, throughput in requests per second; failures summed over measured runs. */
export interface McpMeasurement {
  readonly label: string;
  readonly requestsPerS: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p97_5Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly failures: number;
}

async function fire(
  origin: string,
  target: McpTarget,
  settings: LoadSettings,
  durationS: number,
): Promise<Result> {
  const requests = target.calls.map((call) => ({
    setupRequest: <R extends { path: string }>(request: R): R => ({
      ...request,
      method: 'POST',
      path: '/mcp',
      // A copy: autocannon writes Content-Length into the object it is given.
      headers: { ...call.headers },
      body: call.body,
    }),
  }));
  const options: Options = {
    url: `${origin}/mcp`,
    connections: settings.connections,
    pipelining: 1,
    duration: durationS,
    requests,
    // A JSON-RPC or tool error still comes with status 200: every body is checked.
    verifyBody: looksSuccessful,
  };
  // autocannon's result carries these fields; autocannon.d.ts only declares fewer.
  return (await autocannon(options)) as Result;
}

async function measure(origin: string, target: McpTarget, settings: LoadSettings): Promise<McpMeasurement> {
  await fire(origin, target, settings, settings.warmupS);
  const result = await fire(origin, target, settings, settings.durationS);
  const { latency } = result;
  return {
    label: target.label,
    requestsPerS: result.requests.average,
    p50Ms: latency.p50,
    p90Ms: latency.p90,
    p97_5Ms: latency.p97_5,
    p99Ms: latency.p99,
    maxMs: latency.max,
    failures: result.non2xx + result.errors + result.timeouts + result.mismatches,
  };
}

/** Keeps the run with the higher throughput (the less disturbed one), summing failures. */
function keepBest(previous: McpMeasurement | undefined, next: McpMeasurement): McpMeasurement {
  if (previous === undefined) return next;
  const best = next.requestsPerS > previous.requestsPerS ? next : previous;
  return { ...best, failures: previous.failures + next.failures };
}

/** Every target once per round, in order; the best run of each. */
export async function alternateMcp(
  origin: string,
  targets: readonly McpTarget[],
  settings: LoadSettings,
): Promise<McpMeasurement[]> {
  const best = new Map<string, McpMeasurement>();
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const target of targets) {
      const measurement = await measure(origin, target, settings);
      const rate = Math.round(measurement.requestsPerS).toLocaleString('en-US');
      console.log(
        `  round ${round}/${settings.rounds}  ${target.label.padEnd(24)} ${rate.padStart(7)} req/s  ` +
          `p50 ${measurement.p50Ms} ms  p99 ${measurement.p99Ms} ms`,
      );
      best.set(target.label, keepBest(best.get(target.label), measurement));
    }
  }
  return targets.map(({ label }) => {
    const measurement = best.get(label);
    if (measurement === undefined) throw new Error(`No measurement for ${label}.`);
    return measurement;
  });
}
