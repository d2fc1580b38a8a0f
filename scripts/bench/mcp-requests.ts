/**
 * The MCP requests the bench sends, as raw HTTP: a load tool must replay
 * fixed bytes, so the JSON-RPC envelopes are built here rather than by an
 * SDK client. Both protocol eras the server serves are covered: 2025
 * (stateless, no initialize, answers as one SSE `message` event) and
 * 2026-07-28 (per-request `_meta` and routing headers, plain JSON answers).
 */
import type { LatLon } from '../../src/core/bearing.ts';

export const PROTOCOLS = ['2025-06-18', '2026-07-28'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** One POST to /mcp: what to send and what a correct answer holds. */
export interface McpCall {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const CLIENT_INFO = { name: 'wind-on-segment-bench', version: '1.0.0' };

function call(protocol: Protocol, id: number, method: string, params?: Record<string, unknown>): McpCall {
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
  return { method, headers, body };
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

/**
 * Sends one call with fetch and fails unless the answer is a successful
 * result: run on every distinct body before measuring, so the load never
 * times error answers. Returns the answer's size and content type.
 */
export async function checkCall(
  origin: string,
  call: McpCall,
): Promise<{ bytes: number; type: string; text: string }> {
  const response = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const problem = answerProblem(response.status, text);
  if (problem !== undefined) throw new Error(`${call.method} ${call.body.slice(0, 160)} failed: ${problem}`);
  return { bytes: Buffer.byteLength(text), type: response.headers.get('content-type') ?? '', text };
}
