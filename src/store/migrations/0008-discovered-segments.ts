/**
 * Segments discovered from OpenStreetMap and elevation data, by area: every
 * instance serves what any instance discovered. An area row says when it was
 * mapped (or when a failed attempt may be retried); its segments are whole
 * GeoJSON features carrying their provenance, written in one transaction with
 * the area row, so a reader never sees half an area.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const discoveredSegmentsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('discovered_area')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('checked_at', 'bigint', (col) => col.notNull())
      .addColumn('segment_count', 'integer', (col) => col.notNull())
      .addColumn('osm_timestamp', 'text')
      .addColumn('failure', 'text')
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('retry_at', 'bigint')
      .execute();
    await db.schema
      .createTable('discovered_segment')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('area_key', 'text', (col) => col.notNull())
      .addColumn('feature', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('discovered_segment_area')
      .on('discovered_segment')
      .column('area_key')
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('discovered_segment').execute();
    await db.schema.dropTable('discovered_area').execute();
  },
};
