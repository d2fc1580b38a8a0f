/**
 * The few columns of better-auth's own tables that our code reads or deletes,
 * typed for Kysely. The library owns these tables (its migration creates
 * them); we never insert into them directly.
 *
 * Storage differs by engine: on SQLite a `string[]` column is JSON text and a
 * date is text; PostgreSQL hands back parsed JSON and `Date`s. The readers
 * below accept both.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

type StoredDate = Date | string | number;
type StoredList = string | readonly string[] | null;

// A type, not an interface: Kysely's `withTables` needs one without an open index signature.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type AuthTables = {
  user: {
    id: string;
    email: string;
    name: string;
    emailVerified: boolean | number;
    createdAt: StoredDate;
    updatedAt: StoredDate;
  };
  session: {
    id: string;
    userId: string;
    createdAt: StoredDate;
    expiresAt: StoredDate;
    ipAddress: string | null;
    userAgent: string | null;
  };
  account: { id: string; userId: string; providerId: string; createdAt: StoredDate };
  verification: { id: string; identifier: string; value: string; expiresAt: StoredDate };
  oauthClient: { clientId: string; name: string | null; uri: string | null };
  oauthConsent: { id: string; clientId: string; userId: string; scopes: StoredList; createdAt: StoredDate };
  oauthAccessToken: { id: string; clientId: string; userId: string | null };
  oauthRefreshToken: {
    id: string;
    clientId: string;
    userId: string;
    token: string;
    rotationReplayExpiresAt: StoredDate | null;
  };
};

/** Our store plus the auth tables, on the same connection. */
export type AuthDb = Kysely<Database & AuthTables>;

/** Views the store's Kysely instance with the auth tables' types added. */
export function withAuthTables(db: Kysely<Database>): AuthDb {
  return db.withTables<AuthTables>();
}

/** A scope list as stored: JSON text (SQLite), a parsed array (PostgreSQL) or a space-separated string. */
export function readList(value: StoredList): string[] {
  if (value === null) return [];
  if (typeof value !== 'string') return value.filter((item) => typeof item === 'string');
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.filter((item): item is string => typeof item === 'string');
    } catch {
      // Not JSON after all: fall through to the space-separated reading.
    }
  }
  return text.split(/\s+/).filter(Boolean);
}

/** ISO 8601 (UTC, whole seconds) from whatever the adapter stored; null when unreadable. */
export function readDate(value: StoredDate): string | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isFinite(date.getTime()) ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
}
