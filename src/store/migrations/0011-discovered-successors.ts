/**
 * Riders' watches on the discovered climbs of release 1.7.3 moved to the
 * climbs that took their place in 1.8.0 (decision 0038). The new rules found
 * Andorra's climbs whole and named them anew, so most shipped ids changed:
 * a watch on a fragment of Envalira now watches Envalira. Each old id's
 * successor is the new climb running along at least 60 % of its line the
 * same way (`successorOf`, src/core/discovery/segment-successor.ts), worked
 * out once between the two releases' catalogs and written here, as a
 * migration must never change once shipped. An old id with no successor
 * (null: the road is no longer a climb) is left as it is: the watchlist says
 * the segment is missing from the catalog, and unwatch_segment removes it.
 *
 * A rider who watched two fragments of one climb keeps one watch, the first
 * moved (its threshold and settings). Alerts already sent move too where the
 * new id has none for the same window, so a window alerted for a fragment is
 * not alerted again for the whole climb; the rest keep the old id as history.
 * The same SQL on both engines.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Old id → new id, or null where no climb took its place. */
export const SUCCESSORS_1_8: Readonly<Record<string, string | null>> = {
  'ad-port-d-envalira-from-grau-roig-north-west-side': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-port-d-envalira-from-grau-roig-north-east-side': 'ad-port-d-envalira-from-pas-de-la-casa',
  'ad-port-de-cabus-from-pal': 'ad-port-de-cabus-from-la-massana',
  'ad-cs-130-climb-from-sant-julia-de-loria': 'ad-la-rabassa-from-aubinya',
  'ad-cs-131-climb-from-sant-julia-de-loria-west-side': 'ad-la-rabassa-from-sant-julia-de-loria',
  'ad-cg-4-climb-from-la-massana-east-side': 'ad-port-de-cabus-from-la-massana',
  'ad-cs-210-climb-from-encamp': 'ad-vila-beixalis-from-encamp',
  'ad-cs-310-climb-from-la-massana': 'ad-beixalis-from-la-massana',
  'ad-cs-200-climb-from-les-escaldes': 'ad-engolasters-from-les-escaldes',
  'ad-cs-413-climb-from-arinsal': 'ad-vallnord-sector-arinsal-from-arinsal',
  'ad-cg-3-climb-from-ordino': null,
  'ad-cg-6-climb-from-aixovall': 'ad-climb-to-1-905-m-from-aixovall',
  'ad-cs-320-climb-from-la-massana': 'ad-els-cortals-from-la-massana',
  'ad-cg-2-climb-from-ransol': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-cg-5-climb-from-erts': null,
  'ad-cs-101-climb-from-andorra-la-vella-north-side': 'ad-la-comella-from-andorra-la-vella',
  'ad-cs-101-climb-from-andorra-la-vella-west-side': 'ad-la-comella-from-andorra-la-vella',
  'ad-cs-140-climb-from-sant-julia-de-loria-north-east-side': 'ad-fontaneda-from-sant-julia-de-loria',
  'ad-termes-de-tarteres-climb-from-sant-julia-de-loria': null,
  'ad-cs-140-climb-from-sant-julia-de-loria-north-east-side-w6267882':
    'ad-fontaneda-from-sant-julia-de-loria',
  'ad-cs-111-climb-from-fontaneda': 'ad-mas-d-alins-from-fontaneda',
  'ad-cs-101-climb-from-les-escaldes': 'ad-la-comella-from-les-escaldes',
  'ad-cg-2-climb-from-meritxell': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-cami-de-les-bordes-de-mereig-climb-from-canillo': null,
  'ad-cg-4-climb-from-erts': 'ad-port-de-cabus-from-la-massana',
  'ad-cs-131-climb-from-sant-julia-de-loria-north-west-side': 'ad-la-rabassa-from-sant-julia-de-loria',
  'ad-cs-412-climb-from-arinsal': 'ad-mas-de-ribafeta-from-la-massana',
  'ad-carretera-de-la-gonarda-climb-from-la-massana': 'ad-la-gonarda-from-ordino',
  'ad-cs-330-climb-from-la-massana': 'ad-escas-from-la-massana',
  'ad-cg-2-climb-from-les-escaldes': 'ad-engolasters-from-les-escaldes',
  'ad-carrer-solana-climb-from-grau-roig': null,
  'ad-cg-4-climb-from-la-massana-south-east-side': null,
  'ad-cg-2-climb-from-encamp-south-side': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-cg-2-climb-from-encamp-west-side': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-cg-2-climb-from-canillo': 'ad-port-d-envalira-from-andorra-la-vella',
  'ad-cs-270-climb-from-soldeu': null,
  'ad-cs-220-climb-from-encamp': 'ad-cortals-from-encamp',
  'ad-cg-3-climb-from-el-serrat': 'ad-vallnord-sector-arcalis-from-el-serrat',
};

export const discoveredSuccessorsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const [old, next] of Object.entries(SUCCESSORS_1_8)) {
      if (next === null) continue;
      await sql`
        update watch set segment_id = ${next}
        where segment_id = ${old}
          and not exists (select 1 from watch w where w.rider_id = watch.rider_id and w.segment_id = ${next})
      `.execute(db);
      await sql`delete from watch where segment_id = ${old}`.execute(db);
      await sql`
        update alert set segment_id = ${next}
        where segment_id = ${old}
          and not exists (
            select 1 from alert a
            where a.rider_id = alert.rider_id and a.segment_id = ${next} and a.window_start = alert.window_start
          )
      `.execute(db);
    }
  },

  /**
   * Back to the old ids where a watch moved: the successor's watch returns to
   * the first old id that maps to it (the others were merged into it).
   */
  async down(db: Kysely<unknown>): Promise<void> {
    const firstOld = new Map<string, string>();
    for (const [old, next] of Object.entries(SUCCESSORS_1_8))
      if (next !== null && !firstOld.has(next)) firstOld.set(next, old);
    for (const [next, old] of firstOld) {
      await sql`update watch set segment_id = ${old} where segment_id = ${next}`.execute(db);
    }
  },
};
