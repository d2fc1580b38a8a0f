/**
 * Brings the store's schema up to date at start-up. The same migrations run on
 * both engines; their bookkeeping tables are named `store_migration*` so they
 * never meet the auth library's own migration tables in the same database.
 */
import { sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Store } from './database.ts';

export interface MigrationReport {
  /** Names of the migrations this call applied (empty when already up to date). */
  readonly applied: readonly string[];
  readonly durationMs: number;
}

/**
 * Applies every pending migration of the list given (`src/app/migrations.ts`
 * composes it), each inside a transaction on both engines.
 * On PostgreSQL concurrent starts wait on Kysely's advisory lock, and the
 * bookkeeping lives in the current schema (so a `search_path` in the URL works
 * and schemas sharing a database never see each other's migration history).
 */
export async function migrateToLatest(
  store: Pick<Store, 'db' | 'engine'>,
  migrations: Readonly<Record<string, Migration>>,
): Promise<MigrationReport> {
  const started = performance.now();
  const schema = store.engine === 'postgres' ? await currentSchema(store) : undefined;
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: () => Promise.resolve({ ...migrations }) },
    migrationTableName: 'store_migration',
    migrationLockTableName: 'store_migration_lock',
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName ?? 'bookkeeping';
    throw new Error(`rider store migration ${failed} failed`, { cause: error });
  }
  return {
    applied: results.filter((result) => result.status === 'Success').map((result) => result.migrationName),
    durationMs: performance.now() - started,
  };
}

async function currentSchema(store: Pick<Store, 'db'>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(store.db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: check search_path in DATABASE_URL');
  return schema;
}
