/**
 * Starts servers the way users do (`npm start`, `npm run dev`) for the tests
 * and the measurement scripts, on a free port of 127.0.0.1. Each child runs
 * in its own process group: `npm start` spawns `node scripts/start.ts`, and
 * stopping only npm would leave that server holding the port.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a server may take to answer `/health` (`npm start` may build the site first). */
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 5_000;

export interface RunningService {
  readonly baseUrl: string;
  /** Everything the server printed so far, for error messages. */
  readonly output: () => string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago: the OS picks one for port 0, then it is released. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('Could not get a free TCP port.');
  return address.port;
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Gone in between.
  }
}

/**
 * Runs `npm <args>` and resolves once `http://127.0.0.1:<port>/health`
 * answers 200. `stop()` sends SIGTERM to the whole group, then SIGKILL to
 * whatever is left after a grace period.
 */
export async function startNpmServer(
  args: readonly string[],
  port: number,
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<RunningService> {
  const child = spawn('npm', args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const group = child.pid;
  const stop = async (): Promise<void> => {
    if (group === undefined) return;
    signalGroup(group, 'SIGTERM');
    const deadline = Date.now() + STOP_GRACE_MS;
    while (groupAlive(group) && Date.now() < deadline) await sleep(50);
    signalGroup(group, 'SIGKILL');
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm ${args.join(' ')} exited early:\n${output}`);
    const healthy = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { baseUrl, output: () => output, stop };
    await sleep(200);
  }
  await stop();
  throw new Error(`npm ${args.join(' ')} did not answer /health in ${START_TIMEOUT_MS / 1000} s:\n${output}`);
}

/** `npm start`, as the README says, with extra environment variables. */
export async function startService(env: Record<string, string> = {}, cwd?: string): Promise<RunningService> {
  const port = await freePort();
  // Each server gets its own rider store, so servers started side by side never migrate one file at once.
  const database = join(mkdtempSync(join(tmpdir(), 'wos-store-')), 'wind-on-segment.sqlite');
  return startNpmServer(
    ['start', '--silent'],
    port,
    { ...process.env, WOS_DATABASE_PATH: database, ...env, PORT: String(port), HOST: '127.0.0.1' },
    cwd,
  );
}
