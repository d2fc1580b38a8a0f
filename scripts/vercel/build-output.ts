import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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
