/**
 * The auth tables (`user`, `session`, `account`, `verification`, `jwks`,
 * `oauthClient`, `oauthConsent`, `oauthRefreshToken`…) as one step of our
 * store migrations. better-auth plans them by diffing the live schema against
 * what the configured plugins need; running that plan inside our Migrator
 * keeps one history, one lock and one transaction for both engines.
 *
 * better-auth is imported only when the step runs, so opening an up-to-date
 * store does not pay for loading it (about 0.3 s).
 *
 * After a better-auth upgrade that adds columns, add a new store migration
 * that runs {@link authSchemaMigration} again: the diff then holds only the
 * new columns. Never change this one once shipped.
 */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../store/schema.ts';

/** Only the schema is read (hence the loosely typed `db`): nothing is served with these values. */
const SCHEMA_ONLY = {
  origin: 'http://localhost',
  secret: 'schema-only-secret-never-used-to-sign-anything',
  cimdFetch: () => Promise.reject(new Error('the migration never fetches')),
} as const;

/** Brings the auth tables up to what the current better-auth and plugins expect. */
export const authSchemaMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    const [{ getMigrations }, { authOptions }] = await Promise.all([
      import('better-auth/db/migration'),
      import('./auth.ts'),
    ]);
    const engine = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
    const options = authOptions({ ...SCHEMA_ONLY, store: { db: db as unknown as Kysely<Database>, engine } });
    const plan = await getMigrations(options);
    if (plan.unsafeChanges.length > 0) {
      throw new Error(`auth schema change refused:\n${plan.unsafeChanges.join('\n')}`);
    }
    await plan.runMigrations();
  },
};
