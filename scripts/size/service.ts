/**
 * Starts the real service (`npm start`, the command the README documents) so Lighthouse measures
 * what users get: the built site behind the production server, with its headers and 404 page.
 *
 * Copied in spirit from tests/support/service.ts rather than imported, so the measurement script
 * does not depend on test code. The child runs in its own process group: `npm start` spawns
 * `node scripts/start.ts`, and killing only npm would leave that server holding the port.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** How long `npm start` may take to answer `/health` (it may build the site first). */
const START_TIMEOUT_MS = 180_000;

export interface RunningService {
  readonly baseUrl: string;
  /** Everything the service printed so far, for error messages. */
  readonly output: () => string;
  stop(): Promise<void>;
}

/** A port the OS says is free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
    server.on('error', reject);
  });
}

/** `npm start` on a free port of 127.0.0.1, resolved once `/health` answers 200. */
export async function startService(cwd: string): Promise<RunningService> {
  const port = await freePort();
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const group = child.pid;
  const groupAlive = (): boolean => {
    if (group === undefined) return false;
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const signalGroup = (signal: NodeJS.Signals) => {
    if (group !== undefined && groupAlive()) {
      try {
        process.kill(-group, signal);
      } catch {
        // It exited in between.
      }
    }
  };
  /** SIGTERM to the whole group (npm, sh, the server), SIGKILL for whatever is left after 5 s. */
  const stop = async (): Promise<void> => {
    signalGroup('SIGTERM');
    const deadline = Date.now() + 5_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    signalGroup('SIGKILL');
  };
  await spawned;
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    const healthy = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { baseUrl, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`npm start did not answer /health within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}
