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

/** Rows a multi-row insert carries: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535. */
const INSERT_BATCH = 200;

/** Where an area's segments came from (migration 0010); all optional for on-demand mapping. */
export interface AreaProvenance {
  readonly osmSource?: string | null;
  readonly elevationSource?: string | null;
  /** The offline build that wrote it; null when mapped on demand. */
  readonly build?: string | null;
}

/**
 * Replaces an area's segments and marks it mapped, in one transaction: a
 * reader sees the old area or the new one, never a mix. Segments go in by
 * multi-row inserts of 200. A segment id already held by a neighbouring area
 * (a road across the border of two) stays with the area that found it
 * first; a build renames its own before it saves (see `findSegmentAreas`).
 */
export async function saveDiscoveredArea(
  db: Db,
  area: { key: string; checkedAt: number; osmTimestamp: string | null } & AreaProvenance,
  features: readonly { id: string; feature: string }[],
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('discovered_segment').where('area_key', '=', area.key).execute();
    let saved = 0;
    for (let at = 0; at < features.length; at += INSERT_BATCH) {
      const rows = features
        .slice(at, at + INSERT_BATCH)
        .map(({ id, feature }) => ({ id, area_key: area.key, feature }));
      const result = await trx
        .insertInto('discovered_segment')
        .values(rows)
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
      osm_source: area.osmSource ?? null,
      elevation_source: area.elevationSource ?? null,
      build: area.build ?? null,
    };
    await trx
      .insertInto('discovered_area')
      .values({ key: area.key, ...row })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(row))
      .execute();
    return saved;
  });
}

/** The areas among `keys` that the build `build` has written (a resumed build skips them). */
export async function findBuiltAreas(db: Db, build: string, keys: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (let at = 0; at < keys.length; at += 1000) {
    const rows = await db
      .selectFrom('discovered_area')
      .select('key')
      .where('build', '=', build)
      .where('status', '=', 'done')
      .where('key', 'in', keys.slice(at, at + 1000))
      .execute();
    found.push(...rows.map((row) => row.key));
  }
  return found;
}

/** Which area holds each of these segment ids (those stored at all). */
export async function findSegmentAreas(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (let at = 0; at < ids.length; at += 1000) {
    const rows = await db
      .selectFrom('discovered_segment')
      .select(['id', 'area_key'])
      .where('id', 'in', ids.slice(at, at + 1000))
      .execute();
    for (const row of rows) held.set(row.id, row.area_key);
  }
  return held;
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
