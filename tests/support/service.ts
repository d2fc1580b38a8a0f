import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port the OS says is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

export interface RunningService {
  readonly baseUrl: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the service the way the README says (`npm start`) on a free port of
 * 127.0.0.1 and waits until `/health` answers.
 */
export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const port = await freePort();
  return spawnUntilHealthy(['start', '--silent'], port, {
    ...process.env,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
}

/** `npm run dev` (Astro's dev server with the API mounted) on a free port of 127.0.0.1. */
export async function startDevServer(): Promise<RunningService> {
  const port = await freePort();
  // Vitest's own variables would make Astro's dev server behave as if it ran inside Vitest.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
  return spawnUntilHealthy(
    ['run', 'dev', '--silent', '--', '--port', String(port), '--host', '127.0.0.1'],
    port,
    env,
  );
}

async function spawnUntilHealthy(
  args: readonly string[],
  port: number,
  env: NodeJS.ProcessEnv,
): Promise<RunningService> {
  const child = spawn('npm', args, {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const healthy = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { baseUrl, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`npm start did not answer /health in time:\n${output}`);
}
