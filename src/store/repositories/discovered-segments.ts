/**
 * The discovered areas and their segments, identical on SQLite and
 * PostgreSQL. Segments are stored as GeoJSON feature text and returned as
 * text: the data layer that made them validates them when it reads them
 * back, so the store knows nothing of segments.
 */
import type { Kysely } from 'kysely';
import type { Database, DiscoveredAreaTable } from '../schema.ts';

type Db = Kysely<Database>;

export type DiscoveredAreaRow = DiscoveredAreaTable;

export async function findDiscoveredAreas(db: Db, keys: readonly string[]): Promise<DiscoveredAreaRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('discovered_area').selectAll().where('key', 'in', keys).execute();
}

/** The features of the given areas, as stored. */
export async function findAreaFeatures(db: Db, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('discovered_segment')
    .select('feature')
    .where('area_key', 'in', keys)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.feature);
}

/** The features with these ids, whatever their area. */
export async function findFeaturesById(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('discovered_segment').select('feature').where('id', 'in', ids).execute();
  return rows.map((row) => row.feature);
}

/**
 * Replaces an area's segments and marks it mapped, in one transaction: a
 * reader sees the old area or the new one, never a mix. A segment id already
 * held by a neighbouring area (a road across the border of two) stays with
 * the area that found it first.
 */
export async function saveDiscoveredArea(
  db: Db,
  area: { key: string; checkedAt: number; osmTimestamp: string | null },
  features: readonly { id: string; feature: string }[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('discovered_segment').where('area_key', '=', area.key).execute();
    let saved = 0;
    for (const { id, feature } of features) {
      const result = await trx
        .insertInto('discovered_segment')
        .values({ id, area_key: area.key, feature })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst();
      saved += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    const row = {
      status: 'done' as const,
      checked_at: area.checkedAt,
      segment_count: saved,
      osm_timestamp: area.osmTimestamp,
      failure: null,
      failures: 0,
      retry_at: null,
    };
    await trx
      .insertInto('discovered_area')
      .values({ key: area.key, ...row })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(row))
      .execute();
    return saved;
  });
}

/**
 * Records a failed attempt and when the next may start. A failure never
 * touches the segments a previous success stored: they keep being served.
 */
export async function recordDiscoveryFailure(
  db: Db,
  area: { key: string; checkedAt: number; failure: string; retryAt: number },
): Promise<void> {
  await db
    .insertInto('discovered_area')
    .values({
      key: area.key,
      status: 'failed',
      checked_at: area.checkedAt,
      segment_count: 0,
      osm_timestamp: null,
      failure: area.failure,
      failures: 1,
      retry_at: area.retryAt,
    })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet((eb) => ({
        status: 'failed',
        checked_at: area.checkedAt,
        failure: area.failure,
        failures: eb('discovered_area.failures', '+', 1),
        retry_at: area.retryAt,
      })),
    )
    .execute();
}
