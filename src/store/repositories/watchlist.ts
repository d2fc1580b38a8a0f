/**
 * A rider's watched segments. Every function takes the rider id and every
 * query filters on it, so one rider can never read or change another's rows,
 * whatever segment id a tool passes.
 */
import type { Kysely, Selectable, Updateable } from 'kysely';
import {
  ALERT_THRESHOLD_DEFAULT_KMH,
  isAlertChance,
  isAlertThreshold,
  isRecordTime,
} from '../../core/rider-rules.ts';
import { nowSeconds } from '../clock.ts';
import type { Database, WatchTable } from '../schema.ts';

type Db = Kysely<Database>;

export interface WatchEntry {
  readonly segmentId: string;
  /** Personal record on the segment, whole seconds. */
  readonly recordS: number | null;
  readonly alertsOn: boolean;
  readonly thresholdKmh: number;
  /** Alert only when at least this percent of ensemble members reach the threshold; null = no such rule. */
  readonly minChancePct: number | null;
  /** Unix seconds. */
  readonly createdAt: number;
}

/** Fields to set; a field left out keeps its stored value (or its default on a new watch). */
export interface WatchSettings {
  readonly recordS?: number | null;
  readonly alertsOn?: boolean;
  readonly thresholdKmh?: number;
  readonly minChancePct?: number | null;
}

function toEntry(row: Selectable<WatchTable>): WatchEntry {
  return {
    segmentId: row.segment_id,
    recordS: row.record_s,
    alertsOn: row.alerts_on === true || row.alerts_on === 1,
    thresholdKmh: row.threshold_kmh,
    minChancePct: row.min_chance_pct ?? null,
    createdAt: row.created_at,
  };
}

/** Guards the product rules here too, so no caller can store a value the tools would reject. */
function toUpdate(settings: WatchSettings): Updateable<WatchTable> {
  const update: Updateable<WatchTable> = {};
  if (settings.recordS !== undefined) {
    if (settings.recordS !== null && !isRecordTime(settings.recordS))
      throw new RangeError('invalid record time');
    update.record_s = settings.recordS;
  }
  if (settings.alertsOn !== undefined) update.alerts_on = settings.alertsOn;
  if (settings.thresholdKmh !== undefined) {
    if (!isAlertThreshold(settings.thresholdKmh)) throw new RangeError('alert threshold out of bounds');
    update.threshold_kmh = settings.thresholdKmh;
  }
  if (settings.minChancePct !== undefined) {
    if (settings.minChancePct !== null && !isAlertChance(settings.minChancePct))
      throw new RangeError('alert chance out of bounds');
    update.min_chance_pct = settings.minChancePct;
  }
  return update;
}

/**
 * Watches a segment, or updates the settings given when it is already watched.
 * Insert-first, so two concurrent calls cannot both create the row.
 */
export async function watchSegment(
  db: Db,
  riderId: string,
  segmentId: string,
  settings: WatchSettings = {},
  now: number = nowSeconds(),
): Promise<{ readonly entry: WatchEntry; readonly created: boolean }> {
  const update = toUpdate(settings);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('watch')
      .values({
        rider_id: riderId,
        segment_id: segmentId,
        record_s: update.record_s ?? null,
        alerts_on: update.alerts_on ?? true,
        threshold_kmh: update.threshold_kmh ?? ALERT_THRESHOLD_DEFAULT_KMH,
        min_chance_pct: update.min_chance_pct ?? null,
        created_at: now,
      })
      .onConflict((conflict) => conflict.columns(['rider_id', 'segment_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { entry: toEntry(inserted), created: true };
    const existing = await updateWatch(db, riderId, segmentId, settings);
    if (existing) return { entry: existing, created: false };
    // The row was removed between the two statements: try the insert again.
  }
  throw new Error('watch row kept disappearing while being written');
}

/** Changes settings of a watched segment; undefined when this rider does not watch it. */
export async function updateWatch(
  db: Db,
  riderId: string,
  segmentId: string,
  settings: WatchSettings,
): Promise<WatchEntry | undefined> {
  const update = toUpdate(settings);
  if (Object.keys(update).length === 0) return findWatch(db, riderId, segmentId);
  const row = await db
    .updateTable('watch')
    .set(update)
    .where('rider_id', '=', riderId)
    .where('segment_id', '=', segmentId)
    .returningAll()
    .executeTakeFirst();
  return row && toEntry(row);
}

/**
 * Sets the tailwind that triggers an alert on one watched segment and, when
 * given, the share of ensemble members that must reach it (null removes it).
 */
export async function setAlertThreshold(
  db: Db,
  riderId: string,
  segmentId: string,
  thresholdKmh: number,
  minChancePct?: number | null,
): Promise<WatchEntry | undefined> {
  return updateWatch(db, riderId, segmentId, {
    thresholdKmh,
    ...(minChancePct === undefined ? {} : { minChancePct }),
  });
}

/** Returns whether the rider was watching the segment. */
export async function unwatchSegment(db: Db, riderId: string, segmentId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('watch')
    .where('rider_id', '=', riderId)
    .where('segment_id', '=', segmentId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findWatch(db: Db, riderId: string, segmentId: string): Promise<WatchEntry | undefined> {
  const row = await db
    .selectFrom('watch')
    .selectAll()
    .where('rider_id', '=', riderId)
    .where('segment_id', '=', segmentId)
    .executeTakeFirst();
  return row && toEntry(row);
}

/** The rider's watchlist, oldest watch first. */
export async function listWatchlist(db: Db, riderId: string): Promise<WatchEntry[]> {
  const rows = await db
    .selectFrom('watch')
    .selectAll()
    .where('rider_id', '=', riderId)
    .orderBy('created_at')
    .orderBy('segment_id')
    .execute();
  return rows.map(toEntry);
}
