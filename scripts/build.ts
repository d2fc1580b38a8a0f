/**
 * `npm run build`, and the first step of `npm start`: builds what serving
 * needs, in order, each step skipped when nothing it is made from changed.
 *
 * 1. The generated data (scripts/data/generated.ts): the offline gazetteer
 *    and the region index, which the site's pages read while they render
 *    (`/docs/mcp` resolves example places), so they come first.
 * 2. The site: `astro build` into `dist/` (and `.vercel/output/static`
 *    through the Vercel adapter). Skipped when a hash of everything it is
 *    built from (the sources, `public/`, the configuration, the lockfile,
 *    the generated data and the settings it reads, `WOS_SITE_URL` and
 *    `PUBLIC_MAP_STYLE_URL`) equals
 *    the hash recorded after the last successful build and both outputs
 *    are there; `--force` builds anyway.
 *
 * Run: `npm run build` (`-- --force` rebuilds everything).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseCommand, runCommand } from './cli.ts';
import { ensureGeneratedData } from './data/generated.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Folders and files the site is built from. */
const SITE_INPUTS = [
  'src',
  'public',
  'astro.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
/** The environment the build reads (canonical origin, map style); Vercel's own build always rebuilds. */
const SITE_ENV = ['WOS_SITE_URL', 'PUBLIC_MAP_STYLE_URL'];
/** Outputs whose absence means the site must be built whatever the hash says. */
const SITE_OUTPUTS = ['dist/index.html', '.vercel/output/config.json'];
/** Where the hash of the last successful build is kept: beside the installed packages, never committed. */
const STAMP = join(ROOT, 'node_modules/.cache/wind-on-segment/site-build.sha256');

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
  if (entries === null) return existsSync(path) ? [path] : [];
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? filesUnder(join(path, entry.name)) : [join(path, entry.name)],
    ),
  );
  return nested.flat();
}

/** SHA-256 over the site's inputs (path and content of each file, sorted) and the settings the build reads. */
export async function siteInputsHash(root: string = ROOT): Promise<string> {
  const files = (await Promise.all(SITE_INPUTS.map((input) => filesUnder(join(root, input))))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(await readFile(file));
    hash.update('\0');
  }
  for (const name of SITE_ENV) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  return hash.digest('hex');
}

/** Whether the site in `dist/` was built from exactly the current inputs. */
async function siteIsFresh(hash: string): Promise<boolean> {
  if (process.env['VERCEL'] !== undefined) return false;
  if (!SITE_OUTPUTS.every((output) => existsSync(join(ROOT, output)))) return false;
  const recorded = await readFile(STAMP, 'utf8').catch(() => '');
  return recorded.trim() === hash;
}

/** Runs `astro build` with the Node running this script; throws with its exit code when it fails. */
function astroBuild(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new BuildError(`astro build failed (exit ${build.status ?? build.signal}).`);
}

/** A build step that failed; its own output already says why. */
export class BuildError extends Error {}

/**
 * One build of this checkout at a time: two `npm start`s side by side (the tests start several)
 * would otherwise both run `astro build` into the same `dist/`. The lock is a directory (made
 * atomically) in the temporary folder, named after the checkout, holding its owner's process id;
 * a lock whose owner is gone is taken over. The second comes in after the first and finds the
 * site fresh.
 */
async function withBuildLock<T>(run: () => Promise<T>): Promise<T> {
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 16);
  const lock = join(tmpdir(), `wind-on-segment-build-${checkout}.lock`);
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await lockIsStale(lock)) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new BuildError(`Another build of this checkout holds ${lock}; gave up waiting.`);
    if (!told) console.log('build: another build of this checkout is running; waiting for it.');
    told = true;
    await sleep(250);
  }
  try {
    return await run();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

const LOCK_WAIT_MS = 10 * 60_000;

/** A lock whose owner has exited, or that never got its owner's id within a few seconds. */
async function lockIsStale(lock: string): Promise<boolean> {
  const pid = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
  const made = await stat(lock).then(
    (info) => info.mtimeMs,
    () => Date.now(),
  );
  return Date.now() - made > 5_000;
}

/** Builds what is stale, in order; with `force`, everything. */
export async function build(options: { force?: boolean } = {}): Promise<void> {
  await withBuildLock(() => buildUnlocked(options.force === true));
}

async function buildUnlocked(force: boolean): Promise<void> {
  await ensureGeneratedData({ force, log: true });
  const hash = await siteInputsHash();
  if (!force && (await siteIsFresh(hash))) {
    console.log('site: up to date (dist/ was built from these sources; `npm run build -- --force` rebuilds)');
    return;
  }
  // Forget the old hash first, so a build that fails half way is never taken for a fresh one.
  await rm(STAMP, { force: true });
  const started = performance.now();
  astroBuild();
  await mkdir(join(STAMP, '..'), { recursive: true });
  const temporary = `${STAMP}.${process.pid}.tmp`;
  await writeFile(temporary, `${hash}\n`);
  await rename(temporary, STAMP);
  console.log(`site: built in ${((performance.now() - started) / 1000).toFixed(1)} s → dist/`);
}

const USAGE = `Usage: npm run build [-- --force]

Builds what \`npm start\` serves, in order, each step skipped when nothing it is made from changed:
the generated data (gazetteer, region index), then the site into dist/ (and .vercel/output).

  --force     rebuild everything
  -h, --help  this text`;

if (import.meta.main) {
  await runCommand('npm run build', async () => {
    const { values } = parseCommand(
      { name: 'npm run build', usage: USAGE, options: { force: { type: 'boolean', default: false } } },
      process.argv.slice(2),
    );
    await build({ force: values.force });
  });
}
