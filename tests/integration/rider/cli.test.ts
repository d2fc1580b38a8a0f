/**
 * The command-line tools behave like tools (issue #18): `--help` on every one, a mistake or a
 * failure as one plain line on stderr with a non-zero exit (never a stack trace), limits named in
 * the message, and a success that says what was made.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../src/rider/access-policy.ts';
import { REPO_ROOT } from '../../../scripts/service/launch.ts';
import { toolEnv } from '../../support/tool-env.ts';

const store = join(mkdtempSync(join(tmpdir(), 'wos-cli-')), 'store.sqlite');

function run(script: string, args: readonly string[]) {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...toolEnv, WOS_DATABASE_PATH: store },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** stderr without the auth secret notices, which are information, not the error. */
const errorLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line !== '' && !line.startsWith('auth: '));

const TOOLS = [
  'scripts/rider.ts',
  'scripts/segments-import.ts',
  'scripts/segments-discover.ts',
  'scripts/stripe-double.ts',
  'scripts/build.ts',
  'scripts/start.ts',
  'scripts/data/generated.ts',
  'scripts/docs/generated-blocks.ts',
  'bench/index.ts',
];

describe('every command-line tool', () => {
  it.each(TOOLS)('%s prints its usage for --help and exits 0', (script) => {
    const result = run(script, ['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: (npm (start|run [a-z:]+))/);
    expect(result.stderr).toBe('');
  });

  it.each(TOOLS.filter((script) => script !== 'bench/index.ts'))(
    '%s refuses an unknown option in one line, exit 2, no stack trace',
    (script) => {
      const result = run(script, ['--no-such-option']);
      expect(result.status).toBe(2);
      const lines = errorLines(result.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^npm (start|run [a-z:]+): Unknown option '--no-such-option'.*--help\)$/);
      expect(result.stderr).not.toMatch(/\n\s+at |ERR_PARSE_ARGS/);
    },
  );
});

describe('npm run rider', () => {
  it('says the password limits when the password is too short, without echoing it', () => {
    const result = run('scripts/rider.ts', [
      'create',
      '--email',
      'short@example.org',
      '--password',
      'tiny-pw',
    ]);
    expect(result.status).toBe(2);
    const [line] = errorLines(result.stderr);
    expect(line).toContain(
      `--password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`,
    );
    expect(line).toContain('has 7');
    expect(result.stderr).not.toContain('tiny-pw');
  });

  it.each([
    [['create', '--password', 'a long password'], /--email is required/],
    [
      ['create', '--email', 'not-an-address', '--password', 'a long password'],
      /--email must be an email address/,
    ],
    [
      ['create', '--email', 'a@example.org', '--password', 'a long password', '--plan', 'gold'],
      /--plan must be free or pro, not "gold"/,
    ],
    [['remove', '--email', 'a@example.org'], /unknown command "remove"/],
    [[], /say what to do: create/],
  ])('refuses %j in one line with exit 2', (args, message) => {
    const result = run('scripts/rider.ts', args);
    expect(result.status).toBe(2);
    const lines = errorLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it('says what it made (id, email, plan, trial end), and refuses the same email again in one line', () => {
    const before = Date.now();
    const made = run('scripts/rider.ts', [
      'create',
      '--email',
      'new.rider@example.org',
      '--password',
      'a long password',
      '--plan',
      'pro',
    ]);
    expect(made.status, made.stderr).toBe(0);
    const [first = '', ...rest] = made.stdout.trim().split('\n');
    expect(first).toMatch(/^Created rider \S{10,} in .*store\.sqlite$/);
    expect(rest).toContain('  email: new.rider@example.org');
    expect(rest).toContain('  plan:  pro');
    const trialEnd = /trial: Pro until (\S+), then pro/.exec(made.stdout)?.[1] ?? '';
    const days = (Date.parse(trialEnd) - before) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);

    const again = run('scripts/rider.ts', [
      'create',
      '--email',
      'new.rider@example.org',
      '--password',
      'a long password',
    ]);
    expect(again.status).toBe(1);
    expect(errorLines(again.stderr)).toEqual([expect.stringMatching(/^npm run rider: .*(exists|already)/i)]);
  });

  it('without a trial says so', () => {
    const made = run('scripts/rider.ts', [
      'create',
      '--email',
      'no.trial@example.org',
      '--password',
      'a long password',
      '--no-trial',
    ]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain('  plan:  free');
    expect(made.stdout).toContain('  trial: none');
  });
});
