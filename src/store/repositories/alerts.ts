/**
 * Tailwind alerts: recorded once per (rider, segment, window start), then
 * delivered to the rider's webhook with a bounded number of attempts.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { WEBHOOK_MAX_ATTEMPTS } from '../../core/rider-rules.ts';
import { nowSeconds } from '../clock.ts';
import type { AlertTable, Database } from '../schema.ts';
import type { RiderWebhook } from './riders.ts';

type Db = Kysely<Database>;

/** Longest delivery error kept, so a chatty receiver cannot bloat the table. */
export const LAST_ERROR_MAX_CHARS = 500;

export interface AlertWindow {
  readonly segmentId: string;
  /** Unix seconds, as in `TailwindWindow` from `src/core/tailwind-window.ts`. */
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly peakTailwindKmh: number;
  /** Share of ensemble members (percent) reaching the watch's threshold; null or absent = not asked. */
  readonly chancePct?: number | null;
}

export interface AlertRecord extends AlertWindow {
  readonly id: string;
  readonly riderId: string;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
  readonly attempts: number;
  readonly lastError: string | null;
}

export interface PendingDelivery {
  readonly alert: AlertRecord;
  readonly webhook: RiderWebhook;
}

function toAlert(row: Selectable<AlertTable>): AlertRecord {
  return {
    id: row.id,
    riderId: row.rider_id,
    segmentId: row.segment_id,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    peakTailwindKmh: row.peak_tailwind_kmh,
    chancePct: row.chance_pct ?? null,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

function assertWindow(window: AlertWindow): void {
  const { windowStart, windowEnd, peakTailwindKmh } = window;
  if (!Number.isSafeInteger(windowStart) || !Number.isSafeInteger(windowEnd) || windowEnd <= windowStart) {
    throw new RangeError('an alert window needs whole unix seconds with end after start');
  }
  if (!Number.isFinite(peakTailwindKmh)) throw new RangeError('peak tailwind must be a finite number');
}

/** The row of a new, undelivered alert: one shape for the single and the batched insert. */
function newAlertRow(riderId: string, window: AlertWindow, now: number): Insertable<AlertTable> {
  return {
    id: randomUUID(),
    rider_id: riderId,
    segment_id: window.segmentId,
    window_start: window.windowStart,
    window_end: window.windowEnd,
    peak_tailwind_kmh: window.peakTailwindKmh,
    chance_pct: window.chancePct ?? null,
    created_at: now,
    delivered_at: null,
    attempts: 0,
    last_error: null,
  };
}

/**
 * Records an alert unless one exists for the same rider, segment and window
 * start. Returns the new alert, or null when it was already recorded, so a
 * re-run of the alert job never alerts twice for one window.
 */
export async function recordAlertOnce(
  db: Db,
  riderId: string,
  window: AlertWindow,
  now: number = nowSeconds(),
): Promise<AlertRecord | null> {
  assertWindow(window);
  const row = await db
    .insertInto('alert')
    .values(newAlertRow(riderId, window, now))
    .onConflict((conflict) => conflict.columns(['rider_id', 'segment_id', 'window_start']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toAlert(row) : null;
}

/** One alert to record: whose, and which window. */
export interface NewAlert {
  readonly riderId: string;
  readonly window: AlertWindow;
}

/** Rows per insert statement: 8 parameters each stays far below either engine's bound-parameter limit. */
const INSERT_CHUNK = 500;

/**
 * {@link recordAlertOnce} for many alerts at once, a few hundred per
 * statement: the alert job records a page of alerts in a handful of round
 * trips instead of one per alert. Each statement is atomic, and a row that
 * already exists (same rider, segment and window start) is skipped, so a
 * re-run records nothing twice. Returns how many were new.
 */
export async function recordAlertsOnce(
  db: Db,
  alerts: readonly NewAlert[],
  now: number = nowSeconds(),
): Promise<number> {
  for (const { window } of alerts) assertWindow(window);
  let recorded = 0;
  for (let i = 0; i < alerts.length; i += INSERT_CHUNK) {
    const rows = await db
      .insertInto('alert')
      .values(
        alerts.slice(i, i + INSERT_CHUNK).map(({ riderId, window }) => newAlertRow(riderId, window, now)),
      )
      .onConflict((conflict) => conflict.columns(['rider_id', 'segment_id', 'window_start']).doNothing())
      .returning('id')
      .execute();
    recorded += rows.length;
  }
  return recorded;
}

/** Where a walk over the delivery queue stands: the last alert read, in queue order. */
export interface DeliveryCursor {
  readonly createdAt: number;
  readonly alertId: string;
}

/** The rider's newest alerts first. */
export async function listRecentAlerts(
  db: Db,
  riderId: string,
  options: { readonly limit?: number; readonly since?: number } = {},
): Promise<AlertRecord[]> {
  let query = db.selectFrom('alert').selectAll().where('rider_id', '=', riderId);
  if (options.since !== undefined) query = query.where('created_at', '>=', options.since);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('window_start', 'desc')
    .limit(options.limit ?? 20)
    .execute();
  return rows.map(toAlert);
}

/**
 * Undelivered alerts of riders who have a webhook and attempts left, oldest
 * first (then by id): the delivery job's queue, across riders by design.
 */
export async function listPendingDeliveries(
  db: Db,
  options: {
    readonly limit?: number;
    readonly maxAttempts?: number;
    /** Keyset paging: only alerts after this one in queue order. */
    readonly after?: DeliveryCursor | null;
  } = {},
): Promise<PendingDelivery[]> {
  const { after } = options;
  let query = db
    .selectFrom('alert')
    .innerJoin('rider', 'rider.id', 'alert.rider_id')
    .selectAll('alert')
    .select(['rider.webhook_url', 'rider.webhook_secret'])
    .where('alert.delivered_at', 'is', null)
    .where('alert.attempts', '<', options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS)
    .where('rider.webhook_url', 'is not', null)
    .where('rider.webhook_secret', 'is not', null);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('alert.created_at', 'alert.id'), '>', eb.tuple(after.createdAt, after.alertId)),
    );
  }
  const rows = await query
    .orderBy('alert.created_at')
    .orderBy('alert.id')
    .limit(options.limit ?? 50)
    .execute();
  return rows.flatMap(({ webhook_url, webhook_secret, ...alert }) =>
    webhook_url === null || webhook_secret === null
      ? []
      : [{ alert: toAlert(alert), webhook: { url: webhook_url, secret: webhook_secret } }],
  );
}

/** Counts the successful attempt and stamps delivery; false when unknown or already delivered. */
export async function markAlertDelivered(
  db: Db,
  alertId: string,
  now: number = nowSeconds(),
): Promise<boolean> {
  const result = await db
    .updateTable('alert')
    .set((eb) => ({ delivered_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', alertId)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Counts a failed attempt and keeps its (shortened) error; false when unknown or already delivered. */
export async function markAlertAttemptFailed(db: Db, alertId: string, error: string): Promise<boolean> {
  const result = await db
    .updateTable('alert')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error.slice(0, LAST_ERROR_MAX_CHARS) }))
    .where('id', '=', alertId)
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ids per update statement: far below either engine's bound-parameter limit. */
const UPDATE_CHUNK = 500;

/**
 * Counts one more attempt on the undelivered alerts among `alertIds`, with
 * its outcome, a few hundred per statement; returns how many changed.
 */
async function recordAttempts(
  db: Db,
  alertIds: readonly string[],
  outcome: Pick<Updateable<AlertTable>, 'delivered_at' | 'last_error'>,
): Promise<number> {
  let marked = 0;
  for (let i = 0; i < alertIds.length; i += UPDATE_CHUNK) {
    const result = await db
      .updateTable('alert')
      .set((eb) => ({ ...outcome, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', alertIds.slice(i, i + UPDATE_CHUNK))
      .where('delivered_at', 'is', null)
      .executeTakeFirst();
    marked += Number(result.numUpdatedRows);
  }
  return marked;
}

/**
 * {@link markAlertDelivered} for many alerts in one statement per few
 * hundred: the delivery run records its outcomes in batches instead of one
 * round trip per alert. Returns how many were marked.
 */
export async function markAlertsDelivered(
  db: Db,
  alertIds: readonly string[],
  now: number = nowSeconds(),
): Promise<number> {
  return recordAttempts(db, alertIds, { delivered_at: now, last_error: null });
}

/** {@link markAlertAttemptFailed} for many alerts with the same error. Returns how many were marked. */
export async function markAlertsAttemptFailed(
  db: Db,
  alertIds: readonly string[],
  error: string,
): Promise<number> {
  return recordAttempts(db, alertIds, { last_error: error.slice(0, LAST_ERROR_MAX_CHARS) });
}

/** The alerts with these ids (those that still exist), in no particular order. */
export async function findAlerts(db: Db, alertIds: readonly string[]): Promise<AlertRecord[]> {
  if (alertIds.length === 0) return [];
  const rows = await db.selectFrom('alert').selectAll().where('id', 'in', alertIds).execute();
  return rows.map(toAlert);
}
