/**
 * Where an area's segments came from, on the area row: the OSM source (an
 * Overpass instance or an extract file), the elevation source, and for an
 * area written by an offline build (`npm run segments:discover -- --osm …
 * --into-store`) the build's identity, by which a stopped build resumes and
 * on-demand discovery knows the area was prepared ahead (it is never mapped
 * again from Overpass; the next build refreshes it). Nullable: rows written
 * before keep null.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const discoveredProvenanceMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('discovered_area').addColumn('osm_source', 'text').execute();
    await db.schema.alterTable('discovered_area').addColumn('elevation_source', 'text').execute();
    await db.schema.alterTable('discovered_area').addColumn('build', 'text').execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('discovered_area').dropColumn('build').execute();
    await db.schema.alterTable('discovered_area').dropColumn('elevation_source').execute();
    await db.schema.alterTable('discovered_area').dropColumn('osm_source').execute();
  },
};
