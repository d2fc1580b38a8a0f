/**
 * Alert deliveries by email and Web Push: one row per alert, channel and
 * target (the primary key), so a window reaches each address and device at
 * most once however often the job runs. A run first adds the rows that
 * should exist ({@link addDueDeliveries}), then claims a page of due ones
 * ({@link claimDeliveries}: `sending`, one more attempt counted, in one
 * statement that only one run can win), sends them, and records each
 * outcome ({@link recordDelivery}). A row left in `sending` by a run that
 * died is never sent again: at most once, as the issue asks, where the
 * webhook is at least once with an idempotency key.
 */
import { sql, type Kysely } from 'kysely';
import { CHANNEL_MAX_ATTEMPTS, nextAttemptAt } from '../../core/delivery-backoff.ts';
import { withAuthTables } from '../auth-tables.ts';
import type { Database, DeliveryChannel, DeliveryState } from '../schema.ts';
import { LAST_ERROR_MAX_CHARS } from './alerts.ts';

type Db = Kysely<Database>;

const COLUMNS = [
  'alert_id',
  'channel',
  'target',
  'rider_id',
  'state',
  'attempts',
  'next_attempt_at',
  'created_at',
] as const;

/**
 * Adds the deliveries that should exist and do not yet: for every alert
 * whose window has not ended, one email when the rider has email alerts on
 * and a verified address, and one push per device when push is on.
 * Returns how many rows were added.
 */
export async function addDueDeliveries(db: Db, nowS: number): Promise<number> {
  const auth = withAuthTables(db);
  // Literals rather than parameters: PostgreSQL types a parameter in an INSERT … SELECT list as text.
  const email = auth
    .selectFrom('alert')
    .innerJoin('rider', 'rider.id', 'alert.rider_id')
    .innerJoin('user', 'user.id', 'alert.rider_id')
    .select([
      'alert.id',
      sql<DeliveryChannel>`'email'`.as('channel'),
      sql<string>`''`.as('target'),
      'alert.rider_id',
      sql<DeliveryState>`'pending'`.as('state'),
      sql<number>`0`.as('attempts'),
      sql<number>`${sql.lit(nowS)}`.as('next_attempt_at'),
      sql<number>`${sql.lit(nowS)}`.as('created_at'),
    ])
    .where('alert.window_end', '>', nowS)
    .where('rider.email_alerts', '=', true)
    .where('user.emailVerified', '=', true);
  const push = auth
    .selectFrom('alert')
    .innerJoin('rider', 'rider.id', 'alert.rider_id')
    .innerJoin('push_subscription', 'push_subscription.rider_id', 'alert.rider_id')
    .select([
      'alert.id',
      sql<DeliveryChannel>`'push'`.as('channel'),
      'push_subscription.id as target',
      'alert.rider_id',
      sql<DeliveryState>`'pending'`.as('state'),
      sql<number>`0`.as('attempts'),
      sql<number>`${sql.lit(nowS)}`.as('next_attempt_at'),
      sql<number>`${sql.lit(nowS)}`.as('created_at'),
    ])
    .where('alert.window_end', '>', nowS)
    .where('rider.push_alerts', '=', true);
  let added = 0;
  for (const select of [email, push]) {
    const result = await db
      .insertInto('alert_delivery')
      .columns(COLUMNS)
      .expression(select as never)
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return added;
}

/** What a claimed delivery needs to be sent. */
export interface ClaimedDelivery {
  readonly alertId: string;
  readonly channel: DeliveryChannel;
  readonly target: string;
  readonly riderId: string;
  /** Attempts including this one. */
  readonly attempts: number;
}

/**
 * Claims up to `limit` due deliveries (pending, or failed and due again),
 * oldest first: each becomes `sending` with one more attempt counted, in one
 * statement, so a second run claiming at the same time gets other rows or none.
 */
export async function claimDeliveries(db: Db, nowS: number, limit: number): Promise<ClaimedDelivery[]> {
  const due = await db
    .selectFrom('alert_delivery')
    .select(['alert_id', 'channel', 'target'])
    .where('state', 'in', ['pending', 'failed'])
    .where('next_attempt_at', '<=', nowS)
    .orderBy('next_attempt_at')
    .orderBy('alert_id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  const rows = await db
    .updateTable('alert_delivery')
    .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1) }))
    .where((eb) =>
      eb(
        eb.refTuple('alert_id', 'channel', 'target'),
        'in',
        due.map((row) => eb.tuple(row.alert_id, row.channel, row.target)),
      ),
    )
    .where('state', 'in', ['pending', 'failed'])
    .where('next_attempt_at', '<=', nowS)
    .returning(['alert_id', 'channel', 'target', 'rider_id', 'attempts'])
    .execute();
  return rows.map((row) => ({
    alertId: row.alert_id,
    channel: row.channel,
    target: row.target,
    riderId: row.rider_id,
    attempts: row.attempts,
  }));
}

/** How one claimed delivery ended. */
export type DeliveryOutcome =
  | { readonly kind: 'delivered' }
  /** Tried and failed: retried later while attempts are left. */
  | { readonly kind: 'failed'; readonly error: string }
  /** Not sent and never will be (channel off, device gone, window over). */
  | { readonly kind: 'dropped'; readonly error: string };

export async function recordDelivery(
  db: Db,
  delivery: ClaimedDelivery,
  outcome: DeliveryOutcome,
  nowS: number,
): Promise<void> {
  const set =
    outcome.kind === 'delivered'
      ? { state: 'delivered' as const, delivered_at: nowS, last_error: null }
      : outcome.kind === 'dropped'
        ? { state: 'dropped' as const, last_error: outcome.error.slice(0, LAST_ERROR_MAX_CHARS) }
        : {
            state: delivery.attempts >= CHANNEL_MAX_ATTEMPTS ? ('gave_up' as const) : ('failed' as const),
            next_attempt_at: nextAttemptAt(nowS, delivery.attempts),
            last_error: outcome.error.slice(0, LAST_ERROR_MAX_CHARS),
          };
  await db
    .updateTable('alert_delivery')
    .set(set)
    .where('alert_id', '=', delivery.alertId)
    .where('channel', '=', delivery.channel)
    .where('target', '=', delivery.target)
    .where('state', '=', 'sending')
    .execute();
}

/** A delivery as the settings page shows it. */
export interface DeliveryStatus {
  readonly alertId: string;
  readonly channel: DeliveryChannel;
  readonly target: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: number;
  readonly deliveredAt: number | null;
  readonly lastError: string | null;
}

/** The deliveries of some of the rider's alerts. */
export async function listDeliveries(
  db: Db,
  riderId: string,
  alertIds: readonly string[],
): Promise<DeliveryStatus[]> {
  if (alertIds.length === 0) return [];
  const rows = await db
    .selectFrom('alert_delivery')
    .selectAll()
    .where('rider_id', '=', riderId)
    .where('alert_id', 'in', alertIds)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    alertId: row.alert_id,
    channel: row.channel,
    target: row.target,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    lastError: row.last_error,
  }));
}
