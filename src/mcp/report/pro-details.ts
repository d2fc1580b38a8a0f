/**
 * The Pro details a tool may withhold: which they are (the plan catalog's
 * words), who gets them, and how a withheld one is explained to the caller.
 */
import {
  OWN_SEGMENT_ALLOWANCE,
  ownSegmentsFeature,
  PLANS,
  TRIAL_HOW_TO_START,
  UNLIMITED_RIDER_QUESTIONS,
} from '../../core/plans.ts';
import type { ResolvedUrls } from '../../http/public-urls.ts';
import { isoTime } from '../../core/time.ts';
import { riderAccessOf } from '../../rider/rider-account.ts';
import type { z } from 'zod';
import type { ToolContext } from '../context.ts';
import type { LockedFeatureSchema } from '../schemas/common.ts';

type LockedFeature = z.infer<typeof LockedFeatureSchema>;

/**
 * Every Pro-only detail a tool may withhold (public and rider tools alike),
 * named by its feature line in the plan catalog, word for word: the rider
 * tests check each line is promised by exactly the Pro plans.
 */
export const PRO_DETAILS = {
  hourly_timeline: 'Hour-by-hour 72-hour wind timeline in your assistant’s answers',
  unlimited_rider_calls: UNLIMITED_RIDER_QUESTIONS,
  tailwind_alerts: 'Tailwind alerts on watched segments, with webhook delivery',
  tailwind_chance: 'Chance of a tailwind from ensemble forecasts on best windows, route starts and alerts',
  more_own_segments: ownSegmentsFeature(OWN_SEGMENT_ALLOWANCE.pro),
} as const;

export type ProDetail = keyof typeof PRO_DETAILS;

/**
 * The part of a locked hint the plan catalog decides, so the plans that
 * unlock a detail are exactly the plans whose feature list promises it.
 * Callers add how to unlock it, which depends on who is asking.
 */
export function catalogLock(detail: ProDetail): Pick<LockedFeature, 'feature' | 'description' | 'plans'> {
  const description = PRO_DETAILS[detail];
  return {
    feature: detail,
    description,
    plans: PLANS.filter((plan) => plan.features.includes(description)).map((plan) => plan.id),
  };
}

/** Where a locked hint sends the rider: the pricing page with Pro Monthly pre-selected. */
export function unlockUrl(urls: ResolvedUrls): string {
  return `${urls.pricing}?plan=pro_monthly`;
}

/** A withheld detail at the public address: the way in is a rider account and its trial. */
export function lockedFeature(detail: ProDetail, urls: ResolvedUrls): LockedFeature {
  return {
    ...catalogLock(detail),
    how_to_unlock: `${TRIAL_HOW_TO_START} Rider address: ${urls.mcp}/rider. After the trial, or instead of it, buy Pro on the pricing page (pricing_url).`,
    pricing_url: unlockUrl(urls),
  };
}

/**
 * A withheld detail for a signed-in rider without Pro access. Unlike the
 * public hint (create an account for the trial), it speaks to someone who
 * already has one: their trial, if any, is over, so the way is a Pro plan.
 * `trialEndsAt` is the rider's trial end in Unix seconds, or null.
 */
export function signedInLockedFeature(
  detail: ProDetail,
  trialEndsAt: number | null,
  urls: ResolvedUrls,
): LockedFeature {
  const trial =
    trialEndsAt === null ? '' : `The Pro trial of this rider account ended at ${isoTime(trialEndsAt)}. `;
  return {
    ...catalogLock(detail),
    how_to_unlock: `${trial}The rider buys a Pro plan on the pricing page (pricing_url, Pro Monthly pre-selected; signed in with this rider account); it applies from the next call, with the same connection.`,
    pricing_url: unlockUrl(urls),
  };
}

/**
 * What a caller without Pro access is told is withheld from a segment
 * answer: the timeline and the chance of a tailwind. The public address
 * has no rider, so it always lists both (and never spends the ensemble's
 * per-member cost on an anonymous call).
 */
export function lockedDetails(lock: (detail: ProDetail) => LockedFeature): LockedFeature[] {
  return [lock('hourly_timeline'), lock('tailwind_chance')];
}

/** Whether a public tool's caller gets its Pro details, and how a withheld one is explained to them. */
export interface CallerAccess {
  /** A signed-in rider with Pro access (paid or trial). */
  readonly pro: boolean;
  /** The locked hint for a withheld detail, worded for who is asking. */
  readonly lock: (detail: ProDetail) => z.infer<typeof LockedFeatureSchema>;
}

/**
 * Only a signed-in rider with Pro access (paid or trial) gets a public
 * tool's Pro details. Anonymous callers never do and are told to create an
 * account for the trial; a signed-in free rider already has one, so their
 * hint says the trial is over and names the Pro plan. An unknown rider is
 * treated as anonymous rather than failing a public tool.
 */
export async function callerAccess(context: ToolContext): Promise<CallerAccess> {
  const anonymous: CallerAccess = { pro: false, lock: (detail) => lockedFeature(detail, context.urls) };
  if (context.caller.kind !== 'rider' || !context.store) return anonymous;
  const rider = await riderAccessOf(
    context.store.db,
    context.caller.riderId,
    Math.floor(context.now() / 1000),
  );
  if (rider === undefined) return anonymous;
  return {
    pro: rider.pro,
    lock: (detail) => signedInLockedFeature(detail, rider.trialEndsAt, context.urls),
  };
}
