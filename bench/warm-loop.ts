import { performance } from 'node:perf_hooks';

/** CPU per request and wall-clock percentiles of a warm loop. */
export interface WarmFigures {
  readonly cpuUs: number;
  readonly p50Ms: string;
  readonly p99Ms: string;
}

/**
 * Sends `count / 2` requests to warm up, then `count` measured ones, one at a time: the in-process
 * benches' loop (`mcp-find-cpu.ts`, `rest-segments-cpu.ts`), so both measure the same way.
 */
export async function warmLoop(count: number, send: (i: number) => Promise<unknown>): Promise<WarmFigures> {
  for (let i = 0; i < count / 2; i++) await send(i);
  const walls: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await send(i);
    walls.push(performance.now() - start);
  }
  const { user, system } = process.cpuUsage(cpu);
  walls.sort((a, b) => a - b);
  const at = (q: number) => (walls[Math.floor(walls.length * q)] ?? NaN).toFixed(3);
  return { cpuUs: (user + system) / count, p50Ms: at(0.5), p99Ms: at(0.99) };
}
