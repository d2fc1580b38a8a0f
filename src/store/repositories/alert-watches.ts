/**
 * Cross-rider reads for the alert job. Unlike every other repository, these
 * queries are DELIBERATELY NOT SCOPED TO ONE RIDER: the job has to see every
 * watch with alerts on to batch the forecast by segment. Only the alert job
 * (`src/alerts/`) may import this file; a tool or page must use the
 * rider-scoped functions in `watchlist.ts` and `alerts.ts` instead, so one
 * rider can never read another's rows.
 */
import type { Kysely } from 'kysely';
import type { PaidPlanState } from '../../core/billing-rules.ts';
import type { RiderPlan } from '../../core/rider-rules.ts';
import type { Database } from '../schema.ts';
import { PAID_PLAN_SELECT, paidStateOf } from './billing.ts';

type Db = Kysely<Database>;

/** One watch the alert job judges, with what decides whether its rider gets alerts. */
export interface AlertWatch {
  readonly riderId: string;
  readonly segmentId: string;
  readonly thresholdKmh: number;
  /** Alert only when this percent of ensemble members reach the threshold; null = no such rule. */
  readonly minChancePct: number | null;
  readonly plan: RiderPlan;
  /** Unix seconds; null when the rider never had a trial. */
  readonly trialEndsAt: number | null;
  /** The paid plan, for the same rule. */
  readonly paid: PaidPlanState | null;
}

/** An alert window already recorded that has not ended yet. */
export interface LiveAlertWindow {
  readonly riderId: string;
  readonly segmentId: string;
  readonly windowStart: number;
  readonly windowEnd: number;
}

/**
 * Where a walk over the watches stands: the last watch read, in the order
 * of the watch table's primary key (rider, then segment).
 */
export interface AlertWatchCursor {
  readonly riderId: string;
  readonly segmentId: string;
}

export interface AlertWatchPage {
  readonly watches: readonly AlertWatch[];
  /** The cursor to read the next page from; null when this page was the last. */
  readonly next: AlertWatchCursor | null;
}

/**
 * One page of the watches with alerts on, across all riders, after
 * `after` (from the start when it is absent), leaving out watches of closed
 * own segments (`rider_segment.closed_shape`), whose alerts cannot fire. Keyset paging on the primary
 * key `(rider_id, segment_id)`, not OFFSET: each page costs the same however
 * deep it is, and a watch added or removed between pages neither shifts nor
 * repeats the others. Plan and trial come along so the caller applies the
 * access rule (`hasProAccess`) in one place rather than in SQL.
 */
export async function listAlertWatchPage(
  db: Db,
  options: { readonly after?: AlertWatchCursor | null; readonly limit: number },
): Promise<AlertWatchPage> {
  const { after, limit } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('a page holds at least one watch');
  let query = db
    .selectFrom('watch')
    .innerJoin('rider', 'rider.id', 'watch.rider_id')
    .leftJoin('billing_plan', 'billing_plan.rider_id', 'watch.rider_id')
    .select(PAID_PLAN_SELECT)
    .select([
      'watch.rider_id',
      'watch.segment_id',
      'watch.threshold_kmh',
      'watch.min_chance_pct',
      'rider.plan',
      'rider.trial_ends_at',
    ])
    // A closed own segment (a loop kept before loops were refused) can never reach a threshold: skipped.
    .leftJoin('rider_segment', 'rider_segment.id', 'watch.segment_id')
    .where('rider_segment.closed_shape', 'is', null)
    .where('watch.alerts_on', '=', true);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('watch.rider_id', 'watch.segment_id'), '>', eb.tuple(after.riderId, after.segmentId)),
    );
  }
  const rows = await query.orderBy('watch.rider_id').orderBy('watch.segment_id').limit(limit).execute();
  const watches = rows.map((row) => ({
    riderId: row.rider_id,
    segmentId: row.segment_id,
    thresholdKmh: row.threshold_kmh,
    minChancePct: row.min_chance_pct ?? null,
    plan: row.plan,
    trialEndsAt: row.trial_ends_at,
    paid: paidStateOf(row),
  }));
  const last = watches.at(-1);
  return {
    watches,
    next: watches.length === limit && last ? { riderId: last.riderId, segmentId: last.segmentId } : null,
  };
}

/**
 * Alert windows that end after `afterS` (unix seconds) of the riders from
 * `fromRiderId` to `toRiderId` (inclusive, in id order: one page of watches
 * covers such a range). The job reads them per page to skip a window it
 * already alerted on whose start moved (the hour it started has passed, or a
 * newer forecast shifted it): the unique key only catches an identical start.
 */
export async function listLiveAlertWindows(
  db: Db,
  afterS: number,
  riders: { readonly fromRiderId: string; readonly toRiderId: string },
): Promise<LiveAlertWindow[]> {
  const rows = await db
    .selectFrom('alert')
    .select(['rider_id', 'segment_id', 'window_start', 'window_end'])
    .where('rider_id', '>=', riders.fromRiderId)
    .where('rider_id', '<=', riders.toRiderId)
    .where('window_end', '>', afterS)
    .execute();
  return rows.map((row) => ({
    riderId: row.rider_id,
    segmentId: row.segment_id,
    windowStart: row.window_start,
    windowEnd: row.window_end,
  }));
}
