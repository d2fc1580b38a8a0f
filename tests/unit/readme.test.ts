/**
 * The README stays a doorway (issue #18): short, the two commands near the top, and every link inside
 * the repository. Its prose is not checked here; what it promises is run by
 * tests/fresh-clone/fresh-clone.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const lines = README.split('\n');

describe('README.md', () => {
  it('fits in 200 lines, with the install and start commands within the first 40', () => {
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines.slice(0, 40)).toContain('npm install');
    expect(lines.slice(0, 40)).toContain('npm start');
  });

  it('links only to files of the repository, and each exists', () => {
    const targets = [...README.matchAll(/\]\(([^)\s]+)\)|<(https?:[^>]+)>/g)].map(
      (match) => match[1] ?? match[2] ?? '',
    );
    expect(targets.length).toBeGreaterThan(3);
    for (const target of targets) {
      expect(target, 'a link leaving the repository').not.toMatch(/^[a-z]+:|^\/\/|^\.\.\//);
      expect(existsSync(join(ROOT, dirname('README.md'), target.split('#')[0] ?? '')), target).toBe(true);
    }
  });

  it('shows one picture', () => {
    expect(README.match(/!\[[^\]]*\]\(/g)).toHaveLength(1);
  });

  it('shows the picture `npm run screenshot` makes from the built site, so it cannot go stale by hand', () => {
    const picture = /!\[[^\]]*\]\(([^)]+)\)/.exec(README)?.[1] ?? '';
    const script = readFileSync(join(ROOT, 'scripts/screenshot.ts'), 'utf8');
    expect(script).toContain(`new URL('../${picture}', import.meta.url)`);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['screenshot']).toBe('node scripts/screenshot.ts');
  });
});
