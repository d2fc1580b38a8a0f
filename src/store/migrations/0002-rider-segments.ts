/**
 * Riders' own segments (issue #12): one row per segment, owned by one rider
 * and removed with them. The geometry is the simplified line as compact JSON
 * text (`[[lat, lon, ele|null], …]`), because it is always read whole and
 * never queried inside; the figures beside it are the ones the tools show, so
 * a listing needs no parse. Same column types on both engines, like 0001.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const riderSegmentsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('rider_segment')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('rider_id', 'text', (col) => col.notNull().references('rider.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('points', 'text', (col) => col.notNull())
      .addColumn('point_count', 'integer', (col) => col.notNull())
      .addColumn('distance_m', 'double precision', (col) => col.notNull())
      .addColumn('gain_m', 'double precision', (col) => col.notNull())
      .addColumn('grade_pct', 'double precision', (col) => col.notNull())
      .addColumn('bearing_deg', 'double precision', (col) => col.notNull())
      .addColumn('elevation_coverage', 'double precision', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addCheckConstraint('rider_segment_source_known', sql`source in ('gpx', 'geojson', 'points')`)
      .addCheckConstraint('rider_segment_two_points', sql`point_count >= 2`)
      .addCheckConstraint('rider_segment_length_positive', sql`distance_m > 0`)
      .execute();
    await db.schema
      .createIndex('rider_segment_by_rider')
      .on('rider_segment')
      .columns(['rider_id', 'created_at'])
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('rider_segment').execute();
  },
};
