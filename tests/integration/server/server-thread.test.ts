/**
 * `npm start` serves from a worker thread (`serveInWorker`): that thread gets
 * the heap limits, SIGTERM and SIGINT reach it as messages, and the process
 * exits with its exit code, or 1 with the error printed when an error ends it.
 * Each case runs a small stand-in for the server module in a child process.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOST = pathToFileURL(join(process.cwd(), 'src/server/server-thread.ts')).href;

/** The stand-in: prints its heap limit, then waits for a stop message and exits 3, or throws. */
const ENTRY = `
import { parentPort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
console.log('limit ' + Math.round(getHeapStatistics().heap_size_limit / 1048576));
if (process.env.STAND_IN === 'throw') throw new Error('the stand-in failed');
parentPort.on('message', (message) => {
  console.log('stop ' + message);
  process.exit(3);
});
`;

async function run(
  mode: 'wait' | 'throw',
  signal?: NodeJS.Signals,
): Promise<{ code: number | null; out: string; err: string; mainLimit: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'server-thread-'));
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, ENTRY);
  const script =
    `import { serveInWorker } from ${JSON.stringify(HOST)};` +
    `import { getHeapStatistics } from 'node:v8';` +
    `console.log('main ' + Math.round(getHeapStatistics().heap_size_limit / 1048576));` +
    `serveInWorker(new URL(${JSON.stringify(pathToFileURL(entry).href)}));`;
  const host = join(dir, 'host.mjs');
  writeFileSync(host, script);
  const child = spawn(process.execPath, [host], {
    env: { ...process.env, STAND_IN: mode },
  });
  let out = '';
  let err = '';
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    // Once: a second signal stops the process at once, as it should.
    if (signal && !sent && out.includes('limit ')) sent = child.kill(signal);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err, mainLimit: Number(/main (\d+)/.exec(out)?.[1]) };
}

describe('serveInWorker', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the thread and exits with its code',
    async (signal) => {
      const { code, out } = await run('wait', signal);
      expect(out).toContain(`stop ${signal}`);
      expect(code).toBe(3);
    },
  );

  it('runs the thread with a smaller heap than the main thread’s', async () => {
    const { out, mainLimit } = await run('wait', 'SIGTERM');
    const limit = Number(/limit (\d+)/.exec(out)?.[1]);
    // Old generation at most 1,536 MB, young generation 48 MB.
    expect(limit).toBeLessThanOrEqual(Math.min(mainLimit, 1536 + 48));
    expect(limit).toBeGreaterThan(0);
  });

  it('prints the error that ends the thread and exits 1', async () => {
    const { code, err } = await run('throw');
    expect(err).toContain('the stand-in failed');
    expect(code).toBe(1);
  });
});
