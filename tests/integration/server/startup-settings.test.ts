/**
 * Start-up with a refused setting: the Node server prints the settings
 * message alone (variable, value, accepted form), no stack trace, and exits 1.
 * Runs `src/server/main.ts` as a child process, so it is in the integration lane.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function startWith(env: Record<string, string>): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('start-up with a refused setting', () => {
  it('names the variable, its value and the accepted form, without a stack trace', () => {
    const { status, stderr } = startWith({ PORT: 'abc', WOS_TRUST_PROXY: 'yes' });
    expect(status).toBe(1);
    expect(stderr).toContain('PORT must be a port number from 0 to 65535, not "abc".');
    expect(stderr).toContain('WOS_TRUST_PROXY must be "1", "true", "0" or "false", not "yes".');
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('refuses SQLite on Vercel in one line', () => {
    const { status, stderr } = startWith({ VERCEL: '1', BETTER_AUTH_SECRET: 'x'.repeat(40) });
    expect(status).toBe(1);
    expect(stderr).toContain('Set DATABASE_URL to a PostgreSQL database');
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
