import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Runs `vercel build` offline on a scratch copy of the project (its tracked
 * and unignored files, with node_modules linked), so it never races other
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
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
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
