/**
 * The README's promise, kept by a test (issue #18): a fresh clone of the committed tree, the README's
 * install command, then its start command, and the site, the API and MCP answer. Nothing the
 * working tree has built (dist/, the gazetteer, the region index, node_modules) is there to help.
 *
 * The commands are read from the README's "Run it" block, so the test runs what a newcomer types.
 * The install adds `--prefer-offline` (and skips audit and funding notices): packages come from
 * npm's cache, which the install of this checkout has just filled, so CI stays fast; the
 * command is otherwise the README's. The child processes get the environment a newcomer has:
 * no `npm_*` variables of the `npm test` running this file and none of its `node_modules/.bin` on
 * the PATH, so npm runs on the system's Node and must bring Node 24 itself.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchOnFreePort, REPO_ROOT, type RunningService } from '../../scripts/service/launch.ts';

/**
 * The clone, install and first start on a 2-core machine, with room for a busy one: measured at
 * 375 s for the install and 51 s for the first start at a load average of 15.
 */
const INSTALL_TIMEOUT_MS = 900_000;
/** Removing a clone's 1,300 installed packages can take minutes on a busy disk. */
const CLEANUP_TIMEOUT_MS = 600_000;

/** The commands of the README's first `sh` block under "## Run it", comments and blank lines left out. */
function runItCommands(readme: string): string[] {
  const section = readme.slice(readme.indexOf('\n## Run it\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** The environment of a newcomer's shell: this run's npm and node_modules/.bin stripped. */
function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(name) || name.startsWith('VITEST') || name === 'NODE_ENV' || name === 'NODE_OPTIONS')
      continue;
    env[name] = value;
  }
  env['PATH'] = (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter((entry) => !/node_modules[\\/]\.bin$/.test(entry) && !entry.includes('node-gyp-bin'))
    .join(delimiter);
  return { ...env, ...extra };
}

/** The newcomer's environment for `npm start` in the clone on `port`, with the store beside the clone. */
function cloneEnv(port: number): NodeJS.ProcessEnv {
  return newcomerEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    WOS_DATABASE_PATH: join(clone, '..', 'store.sqlite'),
    WOS_ALERTS_INTERVAL_MS: '0',
  });
}

/** Runs a shell command in the clone, resolving with its output; rejects with it on a non-zero exit. */
function run(command: string, cwd: string): Promise<{ output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      env: newcomerEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) resolve({ output, seconds });
      else
        reject(
          new Error(`\`${command}\` exited ${code} after ${seconds.toFixed(0)} s:\n${output.slice(-8000)}`),
        );
    });
  });
}

let commands: string[] = [];
let clone = '';
let service: RunningService | undefined;
let installSeconds = 0;
let startSeconds = 0;

beforeAll(async () => {
  clone = join(mkdtempSync(join(tmpdir(), 'wos-fresh-clone-')), 'wind-on-segment');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, clone], { stdio: 'pipe' });
  commands = runItCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
  expect(commands).toEqual(['npm install', 'npm start']);
  installSeconds = (await run(`${commands[0]} --prefer-offline --no-audit --no-fund`, clone)).seconds;
  const started = performance.now();
  const [npm, ...args] = (commands[1] ?? '').split(' ');
  service = await launchOnFreePort(npm ?? 'npm', args, { cwd: clone, env: cloneEnv });
  startSeconds = (performance.now() - started) / 1000;
  console.log(
    `fresh clone: install ${installSeconds.toFixed(0)} s, first start ${startSeconds.toFixed(0)} s`,
  );
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await service?.stop();
  if (clone !== '') await rm(join(clone, '..'), { recursive: true, force: true });
}, CLEANUP_TIMEOUT_MS);

describe('a fresh clone, with the README commands', () => {
  it('installs without changing a tracked file', () => {
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: clone,
      encoding: 'utf8',
    });
    expect(status).toBe('');
  });

  it('answers /health with the version package.json names', async () => {
    const response = await fetch(`${service?.baseUrl}/health`);
    expect(response.status).toBe(200);
    const { version } = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string };
    // Since 1.8 /health also names the API version and each data source (all demo on a fresh clone).
    const health = (await response.json()) as { sources?: { mode: string }[] };
    expect(health).toMatchObject({ status: 'ok', version });
    expect(health.sources?.every((source) => source.mode !== 'live')).toBe(true);
  });

  it.each(['/', '/docs', '/docs/mcp', '/pricing'])('serves the page %s', async (path) => {
    const response = await fetch(`${service?.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('</html>');
  });

  it('lists the public MCP tools on /mcp', async () => {
    const client = new Client({ name: 'fresh-clone-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service?.baseUrl}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'find_tailwind_segments',
        'get_route_wind',
        'get_segment',
      ]);
    } finally {
      await client.close();
    }
  });

  it('starts a second time without building again', async () => {
    await service?.stop();
    const started = performance.now();
    service = await launchOnFreePort('npm', ['start'], { cwd: clone, env: cloneEnv });
    const seconds = (performance.now() - started) / 1000;
    expect(service.output()).toContain('site: up to date');
    expect(service.output()).not.toContain('[build] Complete');
    expect(seconds).toBeLessThan(startSeconds);
  }, 120_000);
});
