/**
 * Loops and out-and-backs kept as own segments before such lines were
 * refused (issue 28): each gets `closed_shape` ('loop' or 'out_and_back';
 * null for every one-way segment, which is all that can be added now). Judged
 * as a segment, a closed line's length-weighted tailwind is about 0 in every
 * wind, so an alert on it can never fire: the watchlist says so and the alert
 * job skips it. The shape is the one rule the upload applies
 * (`routeShape`), run over the stored, simplified line, whose ends are the
 * original ends. Same column type and the same SQL on both engines.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { routeShape } from '../../core/route/route-shape.ts';

/** Rows read per query: the table holds a few segments per rider, so the pages stay small. */
const PAGE = 500;

/** `[[lat, lon, ele?], …]`, as 0002 stores it, to the points the shape rule reads. */
function pointsOf(text: string): { lat: number; lon: number }[] {
  const raw = JSON.parse(text) as number[][];
  return raw.map(([lat = 0, lon = 0]) => ({ lat, lon }));
}

export const closedOwnSegmentsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('rider_segment').addColumn('closed_shape', 'text').execute();
    let after = '';
    for (;;) {
      const { rows } = await sql<{ id: string; points: string }>`
        select id, points from rider_segment where id > ${after} order by id limit ${PAGE}
      `.execute(db);
      for (const row of rows) {
        const { shape } = routeShape(pointsOf(row.points));
        if (shape !== 'point_to_point')
          await sql`update rider_segment set closed_shape = ${shape} where id = ${row.id}`.execute(db);
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < PAGE) break;
      after = last.id;
    }
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('rider_segment').dropColumn('closed_shape').execute();
  },
};
