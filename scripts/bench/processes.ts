/**
 * The servers under load, as child processes. Each runs in its own process
 * group, so one signal to the group stops it and anything it spawned (e.g.
 * `astro build` from scripts/start.ts), and none outlives the bench: not on
 * success, not on an error, not on Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from './paths.ts';

export { freePort } from '../service/launch.ts';

const HOST = '127.0.0.1';
const OUTPUT_TAIL_CHARS = 4000;
const STOP_GRACE_MS = 3000;
const POLL_MS = 100;

/** A started server, with the tail of its output for error messages. */
export interface ServerProcess {
  readonly name: string;
  readonly origin: string;
  readonly child: ChildProcess;
  readonly output: () => string;
}

type Env = Readonly<Record<string, string>>;

/** Started and not yet stopped; a leader that exited on its own stays, its group may not be empty. */
const live = new Set<ChildProcess>();

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Signals a whole process group; a group that is already gone is not an error. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Runs `node <script>` from the repository root with PORT and HOST=127.0.0.1
 * set, and a rider store of its own in a temporary folder.
 */
export function startServer(name: string, script: string, port: number, env: Env = {}): ServerProcess {
  const database = join(mkdtempSync(join(tmpdir(), 'wos-bench-store-')), 'wind-on-segment.sqlite');
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: { ...process.env, WOS_DATABASE_PATH: database, ...env, PORT: String(port), HOST },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer | string): void => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => keep(`\n[spawn error] ${error.message}\n`));
  live.add(child);
  return { name, origin: `http://${HOST}:${port}`, child, output: () => tail };
}

/** Polls `path` until it answers 200; fails early if the server exits, or after `timeoutMs`. */
export async function waitUntilOk(server: ServerProcess, path: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (hasExited(server.child)) {
      const how = server.child.signalCode ?? `code ${String(server.child.exitCode)}`;
      throw new Error(`${server.name} exited (${how}) before ${path} answered 200.\n${server.output()}`);
    }
    try {
      const response = await fetch(server.origin + path, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(POLL_MS);
  }
  throw new Error(`${server.name}: no 200 on ${path} within ${timeoutMs / 1000} s (last: ${last}).`);
}

/** SIGTERM to the group, SIGKILL to whatever is left after a grace period. */
async function stop(child: ChildProcess): Promise<void> {
  live.delete(child);
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = hasExited(child) ? Promise.resolve() : once(child, 'exit').then(() => undefined);
  signalGroup(pid, 'SIGTERM');
  await Promise.race([exited, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
  signalGroup(pid, 'SIGKILL');
  await Promise.race([exited, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
}

/** Stops every server this process started. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map(stop));
}

/** Makes sure no server outlives the bench: on exit (sync SIGKILL) and on SIGINT/SIGTERM. */
export function stopServersOnExit(): void {
  process.once('exit', () => {
    for (const child of live) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers.`);
      void stopAll().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
    });
  }
}
