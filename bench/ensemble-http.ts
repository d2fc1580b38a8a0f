/**
 * The over-HTTP half of the ensemble row: p50/p99 of `get_segment` with
 * probabilities for a Pro rider, end to end through a real `node:http`
 * server on 127.0.0.1 (the production server and MCP listener of
 * `npm start`: body buffering, the Node → fetch request, the streamed
 * answer) around the rider tools on the same context as the in-process
 * figure. Only the OAuth bearer check is left out, as in the tests' rider
 * harness: every request calls as the bench's Pro rider, so the figure is
 * the tool, the transport and the SDK, not the sign-in. One keep-alive
 * client, one request at a time, a fixed number of calls, each with a
 * timeout; the server is closed at the end.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { authInfoOf, buildServer } from '../src/mcp/build-server.ts';
import { createServerPool } from '../src/mcp/server-pool.ts';
import type { ToolContext } from '../src/mcp/context.ts';
import { createRateLimiter } from '../src/mcp/rate-limit.ts';
import { RIDER_ADDRESS_TOOLS } from '../src/mcp/tools/rider/index.ts';
import { createHttpServer } from '../src/server/http-server.ts';
import { mcpListener } from '../src/server/mcp-listener.ts';
import { answerProblem, call, percentile, readAnswer } from './mcp-calls.ts';

/** What the HTTP calls measured. */
export interface HttpSegmentFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers whose best window carried a chance (the probabilities were really computed). */
  readonly withChance: number;
  readonly calls: number;
}

const CALL_TIMEOUT_MS = 10_000;

/** True when a get_segment answer's best window has a chance object. */
function hasChance(text: string): boolean {
  const result = readAnswer(text)['result'] as
    { structuredContent?: { best_window?: { chance?: unknown } | null } } | undefined;
  const chance = result?.structuredContent?.best_window?.chance;
  return chance !== undefined && chance !== null;
}

/**
 * `calls` get_segment calls over `ids` (in turn) at the rider address of a
 * server listening on 127.0.0.1 on a free port; the first `warmup` are not
 * timed. Throws on the first failed answer: the figures would be invalid.
 */
export async function segmentOverHttp(
  context: ToolContext,
  ids: readonly string[],
  calls: number,
  warmup = 20,
): Promise<HttpSegmentFigures> {
  const limiter = createRateLimiter({ perMinute: 1_000_000, burst: 1_000_000 });
  const { caller, urls, ...deps } = context;
  const pool = createServerPool(() =>
    buildServer({ tools: RIDER_ADDRESS_TOOLS, deps, audience: { pro: true }, limiter }),
  );
  const handler = createMcpHandler(({ era }) => pool.take(era), {
    legacy: 'stateless',
    maxRequestBodySize: 64 * 1024,
  });
  const authInfo = authInfoOf({ caller, urls, limitKey: 'grant:bench' });
  const listener = mcpListener((request) => handler.fetch(request, { authInfo }), false);
  const server = createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp/rider`;
  const times: number[] = [];
  let withChance = 0;
  try {
    for (let i = 0; i < warmup + calls; i++) {
      const id = ids[i % ids.length] ?? '';
      const { headers, body } = call('2026-07-28', i + 1, 'tools/call', {
        name: 'get_segment',
        arguments: { segment_id: id, include_darkness: false },
      });
      const start = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const text = await response.text();
      const elapsed = performance.now() - start;
      const problem = answerProblem(response.status, text);
      if (problem) throw new Error(`get_segment ${id} over HTTP: ${problem}`);
      if (i < warmup) continue;
      times.push(elapsed);
      if (hasChance(text)) withChance += 1;
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), withChance, calls };
}
