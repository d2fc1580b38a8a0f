import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Gives the copy real node_modules files: Vercel's file tracing does not
 * follow a symlink out of the project, so a linked folder would build
 * functions without their dependencies. Hard links cost no copying on the
 * same file system; elsewhere the files are copied.
 */
function linkNodeModules(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to]);
  } catch {
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

/**
 * Carries the checkout's generated data (the `*.generated.*` files under `src/data/`: the gazetteer, the region
 * index, the seed segments, the zone table; untracked, made from tracked inputs by `npm run build`)
 * into the copy, dated after every input there, so the build in the copy finds it fresh instead of
 * making it again: the build took 27 s instead of 50 s (35 s of CPU instead of 60 s), idle. Where the checkout has
 * none, the copy makes its own, as a deployment does; the fresh-clone check and the data's own tests
 * cover making it.
 */
function carryGeneratedData(root: string, copy: string): void {
  const ignored = execFileSync(
    'git',
    ['ls-files', '--others', '--ignored', '--exclude-standard', '--', 'src/data'],
    { cwd: root, encoding: 'utf8' },
  );
  const later = new Date(Date.now() + 2_000);
  for (const file of ignored.split('\n').filter((name) => name.includes('.generated.'))) {
    cpSync(join(root, file), join(copy, file));
    utimesSync(join(copy, file), later, later);
  }
}

/**
 * Runs `vercel build` offline on a scratch copy of the project (its tracked
 * and unignored files, with node_modules hard-linked), so it never races other
 * tests over `dist/`. Returns the `.vercel/output` directory.
 */
export function buildVercelOutput(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'wos-vercel-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of files.split('\n').filter((name) => name && existsSync(join(root, name)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  carryGeneratedData(root, copy);
  linkNodeModules(join(root, 'node_modules'), join(copy, 'node_modules'));
  mkdirSync(join(copy, '.vercel'));
  writeFileSync(
    join(copy, '.vercel/project.json'),
    JSON.stringify({ projectId: 'offline', orgId: 'offline', settings: { framework: 'astro' } }),
  );
  execFileSync('npx', ['vercel', 'build', '--yes'], {
    cwd: copy,
    env: { ...process.env, VERCEL_INSTALL_COMPLETED: '1', VERCEL_TELEMETRY_DISABLED: '1' },
    stdio: 'pipe',
  });
  return join(copy, '.vercel/output');
}

/** The part of a function's `.vc-config.json` that says what runs and what the upload adds. */
interface FunctionConfig {
  readonly handler: string;
  /** Files the deployment uploads from the project into the function, by their path inside it. */
  readonly filePathMap?: Record<string, string>;
}

/** A built function copied out on its own: its folder, and the file URL of its handler. */
export interface StandaloneFunction {
  readonly dir: string;
  readonly entry: string;
}

/**
 * Copies one built function (`api/rest`, …) into a fresh temporary folder
 * as the deployment would hold it: the `.func` folder with links resolved,
 * plus the project files `vercel build` only lists in `filePathMap` (the
 * upload adds them). Nothing outside that folder can be imported from it,
 * so a dependency the build left out fails instead of resolving to the
 * project's node_modules. Undefined when the build made no such function.
 */
export function standaloneFunction(output: string, name: string): StandaloneFunction | undefined {
  const built = join(output, 'functions', `${name}.func`);
  if (!existsSync(built)) return undefined;
  const dir = join(mkdtempSync(join(tmpdir(), 'wos-func-')), 'fn.func');
  cpSync(built, dir, { recursive: true, dereference: true });
  const config = JSON.parse(readFileSync(join(dir, '.vc-config.json'), 'utf8')) as FunctionConfig;
  const project = join(output, '..', '..');
  for (const [inside, source] of Object.entries(config.filePathMap ?? {})) {
    mkdirSync(dirname(join(dir, inside)), { recursive: true });
    cpSync(join(project, source), join(dir, inside));
  }
  return { dir, entry: pathToFileURL(join(dir, config.handler)).href };
}
