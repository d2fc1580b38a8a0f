/**
 * Every migration the application runs, in order: the store's own tables,
 * then better-auth's (accounts, sessions, OAuth clients, consents, tokens;
 * see src/auth/migration.ts). Composed here, above both layers, so the store
 * never imports the authorization server.
 */
import type { Migration } from 'kysely/migration';
import { authSchemaMigration } from '../auth/migration.ts';
import { openStore, type Store, type StoreConfig } from '../store/database.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { STORE_MIGRATIONS } from '../store/migrations/index.ts';

export const APP_MIGRATIONS: Readonly<Record<string, Migration>> = {
  ...STORE_MIGRATIONS,
  '0002_auth': authSchemaMigration,
};

/** The rider store the settings choose, opened and migrated; a failed migration closes it again. */
export async function openMigratedStore(config: StoreConfig): Promise<Store> {
  const opened = openStore(config);
  try {
    await migrateToLatest(opened, APP_MIGRATIONS);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  return opened;
}
