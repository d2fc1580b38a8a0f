/**
 * The MCP requests the bench sends, as raw HTTP, and how an answer is judged
 * and timed. A load tool must replay fixed bytes, so the JSON-RPC envelopes
 * are built here rather than by an SDK client. Both protocol eras the server
 * serves are covered: 2025 (stateless, no initialize, answers as one SSE
 * `message` event) and 2026-07-28 (per-request `_meta` and routing headers,
 * plain JSON answers).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LatLon } from '../src/core/bearing.ts';
import type { Measurement, Target } from './load.ts';

export type Protocol = '2025-06-18' | '2026-07-28';

/** One POST to /mcp. */
export interface McpCall {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A label and the calls it cycles through. */
export interface McpTarget {
  readonly label: string;
  readonly calls: readonly McpCall[];
}

const CLIENT_INFO = { name: 'wind-on-segment-bench', version: '1.0.0' };

export function call(
  protocol: Protocol,
  id: number,
  method: string,
  params?: Record<string, unknown>,
): McpCall {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocol,
  };
  let fullParams = params;
  if (protocol === '2026-07-28') {
    headers['mcp-method'] = method;
    const name = params?.['name'];
    if (typeof name === 'string') headers['mcp-name'] = name;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': protocol,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    fullParams = { ...params, _meta: meta };
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(fullParams ? { params: fullParams } : {}) });
  return { headers, body };
}

/** `tools/call find_tailwind_segments` at each place, default radius (25 km) and limit (10). */
export function findCalls(protocol: Protocol, places: readonly LatLon[]): McpCall[] {
  return places.map((place, i) =>
    call(protocol, i + 1, 'tools/call', {
      name: 'find_tailwind_segments',
      arguments: { latitude: place.lat, longitude: place.lon },
    }),
  );
}

/** The baseline: same server, transport and protocol handling, no data work. */
export const listCall = (protocol: Protocol): McpCall => call(protocol, 1, 'tools/list');

/** The floor of the protocol path: an empty result. */
export const pingCall = (protocol: Protocol): McpCall => call(protocol, 1, 'ping');

/** A JSON-RPC answer, read from a JSON body or from the `data:` line(s) of one SSE `message` event. */
export function readAnswer(text: string): Record<string, unknown> {
  const trimmed = text.trimStart();
  const json = trimmed.startsWith('{')
    ? trimmed
    : trimmed
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Not a JSON-RPC answer: ${text.slice(0, 200)}`);
  }
  return parsed as Record<string, unknown>;
}

/** Why an answer is not a successful result (a JSON-RPC error or a tool's `isError`), or undefined. */
export function answerProblem(status: number, text: string): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 300)}`;
  let answer: Record<string, unknown>;
  try {
    answer = readAnswer(text);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (answer['error'] !== undefined) return `JSON-RPC error: ${JSON.stringify(answer['error'])}`;
  const result = answer['result'] as Record<string, unknown> | undefined;
  if (result === undefined) return `No result: ${text.slice(0, 300)}`;
  if (result['isError'] === true) return `Tool error: ${JSON.stringify(result['content'])}`;
  return undefined;
}

/** A cheap check for every answer under load, where parsing each body would load the client instead. */
export const looksSuccessful = (body: string): boolean =>
  body.includes('"result":') && !body.includes('"isError":true');

/** How many segments a find answer holds (from `structuredContent`), or undefined for other answers. */
export function segmentCount(text: string): number | undefined {
  const result = readAnswer(text)['result'] as { structuredContent?: { segments?: unknown } } | undefined;
  const segments = result?.structuredContent?.segments;
  return Array.isArray(segments) ? segments.length : undefined;
}

/** Sends one call: the time to the last byte of the answer, its status, text and content type. */
function send(
  agent: Agent,
  url: URL,
  { headers, body }: McpCall,
): Promise<{ ms: number; text: string; status: number; type: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      url,
      { agent, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            ms: performance.now() - start,
            text: Buffer.concat(chunks).toString(),
            status: res.statusCode ?? 0,
            type: res.headers['content-type'] ?? '',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends every distinct body once and fails on any answer that is not a successful result or a
 * find that found nothing: the load then never times error answers, and the forecast cache is
 * warm. Prints what each target answers.
 */
export async function checkTargets(origin: string, targets: readonly McpTarget[]): Promise<void> {
  const agent = new Agent({ keepAlive: true });
  try {
    for (const target of targets) {
      const sizes: number[] = [];
      const found: number[] = [];
      let type = '';
      for (const call of target.calls) {
        const { text, status, ...answer } = await send(agent, new URL(`${origin}/mcp`), call);
        const problem = answerProblem(status, text);
        if (problem !== undefined)
          throw new Error(`${target.label}: ${call.body.slice(0, 160)} failed: ${problem}`);
        sizes.push(Buffer.byteLength(text));
        type = answer.type;
        const segments = segmentCount(text);
        if (segments !== undefined) found.push(segments);
      }
      if (found.length > 0 && Math.min(...found) === 0)
        throw new Error(`${target.label}: a place found no segment.`);
      const mean = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
      const segmentNote =
        found.length > 0 ? `, ${Math.min(...found)}–${Math.max(...found)} segments each` : '';
      const bodies = `${target.calls.length} ${target.calls.length === 1 ? 'body' : 'bodies'}`;
      console.log(
        `  ${target.label.padEnd(26)} ${bodies.padStart(9)}, answers ~${mean} B ${type}${segmentNote}`,
      );
    }
  } finally {
    agent.destroy();
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/**
 * What one assistant waiting on one answer sees: a single keep-alive connection, one request at
 * a time, timed to the microsecond (autocannon rounds latency to whole milliseconds, too coarse
 * for answers that take a few). The targets take turns request by request, so drift in the
 * machine hits the baseline and the tool call alike: `warmupS` discarded, then `durationS`
 * recorded. `requestsPerS` is the target's own share of that one connection.
 */
export async function sequentialLatency(
  origin: string,
  targets: readonly McpTarget[],
  warmupS: number,
  durationS: number,
): Promise<Measurement[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${origin}/mcp`);
  const samples = targets.map((): number[] => []);
  const failed = targets.map(() => 0);
  let firstProblem: string | undefined;
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
          const { ms, text, status } = await send(agent, url, call);
          const problem = answerProblem(status, text);
          if (problem !== undefined) {
            failed[t] = (failed[t] ?? 0) + 1;
            firstProblem ??= `${target.label}: ${problem}`;
          } else if (record) samples[t]?.push(ms);
        }
      }
    }
  } finally {
    agent.destroy();
  }
  if (firstProblem !== undefined) console.error(`  first failed answer: ${firstProblem}`);
  return targets.map(({ label }, t) => {
    const sorted = [...(samples[t] ?? [])].sort((a, b) => a - b);
    const requestsPerS = sorted.length / durationS;
    const p50Ms = percentile(sorted, 50);
    const p99Ms = percentile(sorted, 99);
    return {
      label,
      requestsPerS,
      p50Ms,
      p90Ms: percentile(sorted, 90),
      p97_5Ms: percentile(sorted, 97.5),
      p99Ms,
      maxMs: sorted.at(-1) ?? Number.NaN,
      non2xx: 0,
      errors: 0,
      otherFailures: failed[t] ?? 0,
      rounds: [{ requestsPerS, p50Ms, p99Ms }],
    };
  });
}

/** Load targets for `alternate` (load.ts): each target's calls POSTed to `/mcp` at `origin`, every answer checked. */
export function mcpLoadTargets(origin: string, targets: readonly McpTarget[]): Target[] {
  return targets.map(({ label, calls }) => ({
    label,
    url: `${origin}/mcp`,
    // A copy of the headers: autocannon writes Content-Length into the object it is given.
    requests: calls.map(({ headers, body }) => ({
      method: 'POST',
      path: '/mcp',
      headers: { ...headers },
      body,
    })),
    verifyBody: looksSuccessful,
  }));
}
