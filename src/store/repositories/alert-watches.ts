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
 * Every watch with alerts on, across all riders, ordered by segment so a
 * caller can group them. Plan and trial come along so the caller applies the
 * access rule (`hasProAccess`) in one place rather than in SQL.
 */
export async function listAlertWatches(db: Db): Promise<AlertWatch[]> {
  const rows = await db
    .selectFrom('watch')
    .innerJoin('rider', 'rider.id', 'watch.rider_id')
    .leftJoin('billing_plan', 'billing_plan.rider_id', 'watch.rider_id')
    .select(PAID_PLAN_SELECT)
    .select([
      'watch.rider_id',
      'watch.segment_id',
      'watch.threshold_kmh',
      'rider.plan',
      'rider.trial_ends_at',
    ])
    .where('watch.alerts_on', '=', true)
    .orderBy('watch.segment_id')
    .orderBy('watch.rider_id')
    .execute();
  return rows.map((row) => ({
    riderId: row.rider_id,
    segmentId: row.segment_id,
    thresholdKmh: row.threshold_kmh,
    plan: row.plan,
    trialEndsAt: row.trial_ends_at,
    paid: paidStateOf(row),
  }));
}

/**
 * Alert windows of every rider that end after `afterS` (unix seconds). The
 * job reads them once per run to skip a window it already alerted on whose
 * start moved (the hour it started has passed, or a newer forecast shifted
 * it): the unique key only catches an identical start.
 */
export async function listLiveAlertWindows(db: Db, afterS: number): Promise<LiveAlertWindow[]> {
  const rows = await db
    .selectFrom('alert')
    .select(['rider_id', 'segment_id', 'window_start', 'window_end'])
    .where('window_end', '>', afterS)
    .execute();
  return rows.map((row) => ({
    riderId: row.rider_id,
    segmentId: row.segment_id,
    windowStart: row.window_start,
    windowEnd: row.window_end,
  }));
}
