/**
 * The chance of a tailwind on alerts: a watch may ask for an alert only when
 * at least `min_chance_pct` percent of the ensemble members reach its
 * threshold (null: the deterministic forecast alone decides, as before), and
 * an alert keeps the chance it was recorded with (null when none was asked
 * or the ensemble had no members for the window), so the webhook can say it.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const alertChanceMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('watch').addColumn('min_chance_pct', 'integer').execute();
    await db.schema.alterTable('alert').addColumn('chance_pct', 'integer').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('alert').dropColumn('chance_pct').execute();
    await db.schema.alterTable('watch').dropColumn('min_chance_pct').execute();
  },
};
