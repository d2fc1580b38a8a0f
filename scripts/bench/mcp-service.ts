/**
 * The service under MCP load: `node scripts/start.ts`, as users start it,
 * with the rate limit lifted (the bench is one client sending thousands of
 * calls a second), timed from spawn to the first `/health` 200, and checked
 * answer by answer before anything is measured.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { McpTarget } from './mcp-load.ts';
import { checkCall, segmentCount } from './mcp-requests.ts';
import { freePort, startServer, waitUntilOk, type ServerProcess } from './processes.ts';

const UNLIMITED = { WOS_MCP_RATE_PER_MINUTE: '1000000000', WOS_MCP_RATE_BURST: '1000000000' };

export interface StartedService {
  readonly server: ServerProcess;
  /** Spawn to the first `/health` 200; the catalog is loaded before the server listens. */
  readonly startMs: number;
}

/** Starts the service with `env` on a free port of 127.0.0.1 and waits until it answers. */
export async function startMcpService(name: string, env: Record<string, string>): Promise<StartedService> {
  const started = performance.now();
  const server = startServer(name, 'scripts/start.ts', await freePort(), { ...UNLIMITED, ...env });
  await waitUntilOk(server, '/health');
  return { server, startMs: performance.now() - started };
}

/** Resident memory of a server process in MB, read from /proc (Linux), or undefined elsewhere. */
export function residentMb(server: ServerProcess): number | undefined {
  try {
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

const mean = (values: readonly number[]): number =>
  Math.round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length));

/**
 * Sends every distinct body once: fails on any answer that is not a
 * successful result or a find that found nothing, fills the forecast cache
 * so the load runs warm, and prints what each target answers.
 */
export async function warmUp(origin: string, targets: readonly McpTarget[]): Promise<void> {
  for (const target of targets) {
    const sizes: number[] = [];
    const found: number[] = [];
    let type = '';
    for (const call of target.calls) {
      const answer = await checkCall(origin, call);
      sizes.push(answer.bytes);
      type = answer.type;
      const segments = segmentCount(answer.text);
      if (segments !== undefined) found.push(segments);
    }
    if (found.length > 0 && Math.min(...found) === 0) {
      throw new Error(`${target.label}: a place found no segment.`);
    }
    const segmentNote = found.length > 0 ? `, ${Math.min(...found)}–${Math.max(...found)} segments each` : '';
    const bodies = `${target.calls.length} ${target.calls.length === 1 ? 'body' : 'bodies'}`;
    console.log(
      `  ${target.label.padEnd(26)} ${bodies.padStart(9)}, answers ~${mean(sizes)} B ${type}${segmentNote}`,
    );
  }
}
