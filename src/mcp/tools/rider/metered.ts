import { usageSummary } from '../../../core/rider-rules.ts';
import type { ResolvedUrls } from '../../../http/public-urls.ts';
import { callsUsed, countCall } from '../../../service/rider-usage.ts';
import type { z } from 'zod';
import type { LockedFeatureSchema } from '../../schemas/common.ts';
import type { Usage } from '../../schemas/rider.ts';
import type { ToolAnswer } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { riderTime, riderTimeZone } from './rider-zone.ts';
import type { RiderSession } from './rider-context.ts';

type LockedFeature = z.infer<typeof LockedFeatureSchema>;

/** Riders with Pro access have no limit and are not counted: every usage field is null. */
export const UNLIMITED_USAGE: Usage = { used: null, limit: null, remaining: null, resets_at: null };

/** What a metered tool answers past the limit: nothing but these two fields. */
export interface LimitReached {
  readonly locked: LockedFeature[];
  readonly usage: Usage;
}

/**
 * "Tue 1 Dec 05:30 UTC+5:30 (Tue 1 Dec 00:00 UTC)": the monthly count follows
 * the UTC calendar, said in the rider's zone where it is known (`riderTime`).
 */
const resetText = (iso: string | null, timeZone: string | undefined): string =>
  iso === null ? 'the start of next month' : riderTime(Date.parse(iso) / 1000, timeZone);

function usageLine(usage: Usage, timeZone: string | undefined): string {
  return `Free allowance: ${usage.used} of ${usage.limit} calls used this month (UTC), ${usage.remaining} left; resets ${resetText(usage.resets_at, timeZone)}.`;
}

/** A metered tool's answer, with the rider's zone when the tool found it (for the reset time). */
export type MeteredAnswer<Full> = ToolAnswer<Full> & { readonly timeZone?: string | undefined };

async function limitReached(session: RiderSession, used: number, limit: number, urls: ResolvedUrls) {
  const usage = usageSummary(used, limit, session.nowS);
  const timeZone = await riderTimeZone(session);
  const data: LimitReached = { locked: [riderLockedFeature('unlimited_rider_calls', session, urls)], usage };
  const summary =
    `Free monthly limit reached: ${used} of ${limit} calls to get_my_watchlist and get_my_tailwind_windows ` +
    `used this month (UTC). Do not call either again before ${resetText(usage.resets_at, timeZone)}, when the count starts over. ` +
    'Tell the rider; Pro has no limit (see locked). watch_segment, unwatch_segment, set_alert_threshold, ' +
    'find_tailwind_segments and get_segment still work.';
  return { data, summary };
}

/**
 * Serves a call to `get_my_watchlist` or `get_my_tailwind_windows` under the
 * free allowance. Riders with Pro access (paid or trial) are neither limited
 * nor counted. For a free rider the answer is built first and counted last,
 * with the store's atomic count (`countCall`), so exactly the served calls are
 * counted: a refused call, or one that fails (a weather outage), costs
 * nothing, and 50 concurrent calls at zero serve exactly the limit. A cheap
 * read first turns an already-exhausted rider away without any work; it
 * decides nothing on its own, the atomic count does.
 */
export async function metered<Full extends object>(
  session: RiderSession,
  urls: ResolvedUrls,
  build: () => Promise<MeteredAnswer<Full>>,
): Promise<ToolAnswer<(Full & { usage: Usage }) | LimitReached>> {
  const limit = session.monthlyLimit;
  if (limit === null) {
    const answer = await build();
    return {
      data: { ...answer.data, usage: UNLIMITED_USAGE },
      summary: `${answer.summary}\nNo monthly call limit: Pro access.`,
    };
  }
  const { db } = session.store;
  const before = await callsUsed(db, session.rider.id, session.nowS);
  if (before >= limit) return limitReached(session, before, limit, urls);
  const answer = await build();
  const quota = await countCall(db, session.rider.id, session.nowS, limit);
  if (!quota.allowed) return limitReached(session, quota.used, limit, urls);
  const usage = usageSummary(quota.used, limit, session.nowS);
  return {
    data: { ...answer.data, usage },
    summary: `${answer.summary}\n${usageLine(usage, answer.timeZone)}`,
  };
}
