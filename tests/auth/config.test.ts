/**
 * The auth settings from the environment (where the secret comes from, when
 * it is required) and the command-line account creation, whose password hash
 * must be the scrypt the docs state.
 */
import { scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_FILE_NAME } from '../../src/auth/secret.ts';
import { authConfigFromEnv } from '../support/settings.ts';
import { createRiderAccount } from '../../src/app/rider-accounts.ts';
import { withAuthTables } from '../../src/store/auth-tables.ts';
import { sqliteTestStore } from './support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'wos-auth-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'an-environment-secret-of-44-characters-long!';
const sqlite = (name: string) => ({ engine: 'sqlite', path: join(dir, name, 'store.sqlite') }) as const;
const postgres = { engine: 'postgres', url: 'postgres://db.example/wos' } as const;

describe('authConfigFromEnv', () => {
  it('takes BETTER_AUTH_SECRET when set, and refuses a short one', () => {
    expect(authConfigFromEnv({ BETTER_AUTH_SECRET: SECRET }, postgres)).toMatchObject({
      secret: SECRET,
      secretSource: 'env',
    });
    expect(() => authConfigFromEnv({ BETTER_AUTH_SECRET: 'short' }, postgres)).toThrow(/at least 32/);
  });

  it('requires the secret for a shared store: PostgreSQL or Vercel', () => {
    expect(() => authConfigFromEnv({}, postgres)).toThrow(/BETTER_AUTH_SECRET/);
    expect(() => authConfigFromEnv({ VERCEL: '1' }, sqlite('vercel'))).toThrow(/BETTER_AUTH_SECRET/);
  });

  it('generates a per-install secret beside the SQLite file once, owner-only, and says so', () => {
    const lines: string[] = [];
    const first = authConfigFromEnv({}, sqlite('install'), (line) => lines.push(line));
    const file = join(dir, 'install', SECRET_FILE_NAME);
    expect(first).toMatchObject({ secretSource: 'generated-file', secretFile: file });
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = authConfigFromEnv({}, sqlite('install'), (line) => lines.push(line));
    expect(second).toMatchObject({ secret: first.secret, secretSource: 'file' });
    expect(lines).toEqual([
      expect.stringContaining('generated one'),
      expect.stringContaining('using this install'),
    ]);
  });

  it('uses a random secret for an in-memory store', () => {
    const a = authConfigFromEnv({}, { engine: 'sqlite', path: ':memory:' }, () => undefined);
    const b = authConfigFromEnv({}, { engine: 'sqlite', path: ':memory:' }, () => undefined);
    expect(a.secretSource).toBe('memory');
    expect(a.secret).not.toBe(b.secret);
  });

  it('fixes the origin to WOS_SITE_URL and allows its host', () => {
    const config = authConfigFromEnv(
      { BETTER_AUTH_SECRET: SECRET, WOS_SITE_URL: 'https://wind.example/docs/' },
      postgres,
    );
    expect(config.siteUrl).toBe('https://wind.example');
    expect(config.allowedHosts).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', 'wind.example']));
    expect(() =>
      authConfigFromEnv({ BETTER_AUTH_SECRET: SECRET, WOS_SITE_URL: 'ftp://x' }, postgres),
    ).toThrow(/WOS_SITE_URL/);
  });
});

describe('createRiderAccount (npm run rider -- create)', () => {
  it('creates the account and its rider row, with the scrypt hash the docs state', async () => {
    const { store, dispose } = await sqliteTestStore();
    try {
      const input = {
        store,
        secret: SECRET,
        origin: 'http://localhost',
        email: 'CLI@Example.com',
        password: 'a CLI passphrase',
        plan: 'pro',
      } as const;
      const rider = await createRiderAccount(input);
      expect(rider).toMatchObject({ email: 'cli@example.com', plan: 'pro' });
      expect(rider.trialEndsAt).toBeGreaterThan(rider.createdAt);
      const account = await store.db
        .withTables<{ account: { userId: string; password: string } }>()
        .selectFrom('account')
        .select('password')
        .where('userId', '=', rider.id)
        .executeTakeFirstOrThrow();
      const [salt = '', key = ''] = account.password.split(':');
      const derived = scryptSync(input.password.normalize('NFKC'), salt, 64, {
        N: 16384,
        r: 16,
        p: 1,
        maxmem: 64 * 1024 * 1024,
      });
      expect(derived.toString('hex')).toBe(key);
      const sessions = await withAuthTables(store.db).selectFrom('session').select('id').execute();
      expect(sessions).toEqual([]);
      await expect(createRiderAccount(input)).rejects.toThrow(/already exists/i);
    } finally {
      await dispose();
    }
  });
});
