/**
 * Every migration the application runs, in order: the store's own tables,
 * then better-auth's (accounts, sessions, OAuth clients, consents, tokens;
 * see src/auth/migration.ts). Composed here, above both layers, so the store
 * never imports the authorization server.
 */
import type { Migration } from 'kysely/migration';
import { authSchemaMigration } from '../auth/migration.ts';
import { STORE_MIGRATIONS } from '../store/migrations/index.ts';

export const APP_MIGRATIONS: Readonly<Record<string, Migration>> = {
  ...STORE_MIGRATIONS,
  '0002_auth': authSchemaMigration,
};
