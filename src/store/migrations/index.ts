/**
 * Every store migration, by name, as code: a static list bundles into a
 * serverless function, where scanning a migrations folder at run time would
 * find nothing. Names sort in the order they run; never rename or edit one
 * that has shipped, add a new one.
 */
import type { Migration } from 'kysely/migration';
import { authSchemaMigration } from '../../auth/migration.ts';
import { initialMigration } from './0001-initial.ts';

export const STORE_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initialMigration,
  /** better-auth's tables (accounts, sessions, OAuth clients, consents, tokens): see src/auth/migration.ts. */
  '0002_auth': authSchemaMigration,
};
