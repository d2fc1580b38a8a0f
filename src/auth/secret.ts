/**
 * The authorization server's settings, from what `src/app/settings.ts` parsed.
 *
 * `BETTER_AUTH_SECRET` signs the login/consent continuation and encrypts the
 * token-signing keys at rest, so every instance must share it and it must not
 * change. Set it wherever the store is shared (PostgreSQL, Vercel); there it
 * is required. A single `npm start` on the SQLite file may leave it unset: a
 * random secret is then generated once and kept next to the database file.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { StoreConfig } from '../store/database.ts';

/** Shorter secrets are refused: 32 characters of base64 carry 192 bits. */
export const MIN_SECRET_LENGTH = 32;

/** The generated secret's file name, beside the SQLite database. */
export const SECRET_FILE_NAME = 'auth-secret';

export interface AuthConfig {
  readonly secret: string;
  /** Where the secret came from, for the start-up log line. */
  readonly secretSource: 'env' | 'file' | 'generated-file' | 'memory';
  readonly secretFile?: string;
  /** `WOS_SITE_URL`: the one public origin; unset, each request's own origin is used. */
  readonly siteUrl?: string;
  /** Host names a request may be served under when `siteUrl` is unset (the MCP allow-list); `*` allows any. */
  readonly allowedHosts: readonly string[];
}

/** What the settings say about the secret and the origin. */
export interface AuthSettings {
  /** `BETTER_AUTH_SECRET`, when set. */
  readonly secret: string | undefined;
  /** On Vercel the store is always shared, so the secret is required. */
  readonly onVercel: boolean;
  /** `WOS_SITE_URL`'s origin, when set. */
  readonly siteOrigin: string | undefined;
  /** The MCP allow-list: host names a request may be served under when the origin is not fixed. */
  readonly allowedHosts: readonly string[];
}

function checkedSecret(secret: string, where: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `${where} must be at least ${MIN_SECRET_LENGTH} characters (try: openssl rand -base64 32)`,
    );
  }
  return secret;
}

/** Reads the secret file, or creates it (owner-only) when it does not exist yet. */
function fileSecret(path: string): { secret: string; created: boolean } {
  try {
    return { secret: checkedSecret(readFileSync(path, 'utf8').trim(), path), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return { secret, created: true };
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fileSecret(path);
    throw error;
  }
}

/**
 * The auth settings for a store. Throws when a shared store has no
 * `BETTER_AUTH_SECRET`: instances with different secrets would reject each
 * other's sign-ins and could not decrypt the signing keys.
 */
export function authConfigFor(
  settings: AuthSettings,
  store: StoreConfig,
  log: (line: string) => void = console.log,
): AuthConfig {
  const { siteOrigin: siteUrl } = settings;
  const common = { allowedHosts: settings.allowedHosts, ...(siteUrl ? { siteUrl } : {}) };
  const given = settings.secret?.trim();
  if (given) return { ...common, secret: checkedSecret(given, 'BETTER_AUTH_SECRET'), secretSource: 'env' };
  if (store.engine === 'postgres' || settings.onVercel) {
    throw new Error('Set BETTER_AUTH_SECRET (at least 32 random characters) for a shared rider store');
  }
  if (store.path === ':memory:') {
    log('auth: no BETTER_AUTH_SECRET; using a random one for this in-memory run');
    return { ...common, secret: randomBytes(32).toString('base64url'), secretSource: 'memory' };
  }
  const secretFile = join(dirname(store.path), SECRET_FILE_NAME);
  const { secret, created } = fileSecret(secretFile);
  log(
    created
      ? `auth: no BETTER_AUTH_SECRET; generated one for this install in ${secretFile} (keep it with the database)`
      : `auth: no BETTER_AUTH_SECRET; using this install's secret from ${secretFile}`,
  );
  return { ...common, secret, secretSource: created ? 'generated-file' : 'file', secretFile };
}
