/**
 * The one process launcher: starts servers the way users do (`npm start`,
 * `npm run dev`, `node scripts/start.ts`) on a free port of 127.0.0.1, for
 * the tests, `npm run bench` and `npm run size`. Each child leads its own
 * process group: `npm start` spawns `node scripts/start.ts` (which may spawn
 * `astro build`), and stopping only the leader would leave a server holding
 * the port. Every server started and not yet stopped is remembered, so
 * `stopAllOnExit` can make sure none outlives the script that started it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root (where `package.json` is), whatever the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How long a server may take to answer `/health` (`npm start` may build the site first). */
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 5_000;
/** What is kept of a server's output for error messages. */
const OUTPUT_TAIL_CHARS = 16_000;

export interface RunningService {
  /** What was started, for error messages. */
  readonly name: string;
  readonly baseUrl: string;
  /** The group leader's process id (the server itself when it was started with `node`). */
  readonly pid: number;
  /** The tail of everything the server printed so far. */
  readonly output: () => string;
  stop(): Promise<void>;
}

const live = new Set<RunningService>();

/**
 * How many more ports a server is tried on when the one picked was taken before it listened. A
 * port the OS handed out for port 0 lies in its ephemeral range, which every outgoing connection of
 * the machine draws from too, and `npm start` may spend seconds checking its data before it listens.
 */
const PORT_TAKEN_RETRIES = 3;

/** The child exited saying its port was taken: another port will do. */
export class PortTakenError extends Error {}

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
 * Runs `command args` in its own process group and resolves once
 * `http://127.0.0.1:<port>/health` answers 200; fails early when the child
 * exits first. `stop()` sends SIGTERM to the whole group, then SIGKILL to
 * whatever is left after a grace period.
 */
export async function launch(
  command: string,
  args: readonly string[],
  options: { readonly port: number; readonly env: NodeJS.ProcessEnv; readonly cwd?: string },
): Promise<RunningService> {
  const name = [command === process.execPath ? 'node' : command, ...args].join(' ');
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const group = child.pid ?? 0;
  const service: RunningService = {
    name,
    baseUrl: `http://127.0.0.1:${options.port}`,
    pid: group,
    output: () => tail,
    async stop() {
      live.delete(service);
      signalGroup(group, 'SIGTERM');
      const deadline = Date.now() + STOP_GRACE_MS;
      while (groupAlive(group) && Date.now() < deadline) await sleep(50);
      signalGroup(group, 'SIGKILL');
    },
  };
  live.add(service);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      live.delete(service);
      const Failure = tail.includes(`EADDRINUSE: address already in use 127.0.0.1:${options.port}`)
        ? PortTakenError
        : Error;
      throw new Failure(`${name} exited early:\n${tail}`);
    }
    const healthy = await fetch(`${service.baseUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => (await response.arrayBuffer(), response.ok),
      () => false,
    );
    if (healthy) return service;
    await sleep(100);
  }
  await service.stop();
  throw new Error(`${name} did not answer /health in ${START_TIMEOUT_MS / 1000} s:\n${tail}`);
}

/**
 * `launch` on a free port, and again on another when that one was taken in between (see
 * `PORT_TAKEN_RETRIES`). `env` gives the environment for the port chosen; `pickPort` the port
 * (a free one by default).
 */
export async function launchOnFreePort(
  command: string,
  args: readonly string[],
  options: {
    readonly env: (port: number) => NodeJS.ProcessEnv;
    readonly cwd?: string;
    readonly pickPort?: () => Promise<number>;
  },
): Promise<RunningService> {
  const pickPort = options.pickPort ?? freePort;
  for (let retries = PORT_TAKEN_RETRIES; ; retries--) {
    const port = await pickPort();
    const launched = { port, env: options.env(port), ...(options.cwd ? { cwd: options.cwd } : {}) };
    try {
      return await launch(command, args, launched);
    } catch (error) {
      if (!(error instanceof PortTakenError) || retries === 0) throw error;
    }
  }
}

/** The environment of a server on `port`, with a rider store of its own, so servers side by side never share one. */
function serverEnv(port: number, env: Record<string, string>): NodeJS.ProcessEnv {
  const database = join(mkdtempSync(join(tmpdir(), 'wos-store-')), 'wind-on-segment.sqlite');
  return { ...process.env, WOS_DATABASE_PATH: database, ...env, PORT: String(port), HOST: '127.0.0.1' };
}

/** `npm start`, as the README says, with extra environment variables. */
export async function startService(env: Record<string, string> = {}, cwd?: string): Promise<RunningService> {
  return launchOnFreePort('npm', ['start', '--silent'], {
    env: (port) => serverEnv(port, env),
    ...(cwd ? { cwd } : {}),
  });
}

/**
 * `node <args>` from the repository root, without npm in between, so the process id is the
 * server's own (the bench reads its memory and times its start).
 */
export async function startNode(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<RunningService> {
  return launchOnFreePort(process.execPath, args, { env: (port) => serverEnv(port, env) });
}

/** The Node arguments of `npm start` as package.json declares them (flags included), for `startNode`. */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start runs "${command}", not node: update npmStartArgs.`);
  return args;
}

/**
 * `npm run dev` (Astro's dev server with the API mounted), beside any other
 * dev server of this project (`--ignore-lock`: Astro otherwise allows one
 * per project).
 */
export async function startDevServer(): Promise<RunningService> {
  const port = await freePort();
  // Vitest's own variables would make Astro's dev server behave as if it ran inside Vitest.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
  const args = [
    'run',
    'dev',
    '--silent',
    '--',
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--ignore-lock',
  ];
  return launch('npm', args, { port, env });
}

/** Stops every server this process started and has not stopped yet. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((service) => service.stop()));
}

/** Makes sure no server outlives this process: SIGKILL on exit, a clean stop on SIGINT/SIGTERM. */
export function stopAllOnExit(): void {
  process.once('exit', () => {
    for (const { pid } of live) signalGroup(pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers.`);
      void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}
