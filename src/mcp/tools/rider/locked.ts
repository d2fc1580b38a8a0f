import { PLANS } from '../../../core/plans.ts';
import type { ResolvedUrls } from '../../../http/config.ts';
import type { z } from 'zod';
import { PRO_DETAILS } from '../../report/locked.ts';
import { isoTime } from '../../report/time.ts';
import type { LockedFeatureSchema } from '../../schemas/common.ts';
import type { RiderSession } from './rider-context.ts';

type LockedFeature = z.infer<typeof LockedFeatureSchema>;

/**
 * The Pro lines of the plan catalog that the rider tools withhold, word for
 * word (the rider tests check each one is promised by exactly the Pro plans).
 */
export const RIDER_PRO_DETAILS = {
  ...PRO_DETAILS,
  unlimited_rider_calls: 'Unlimited calls to get_my_watchlist and get_my_tailwind_windows',
  tailwind_alerts: 'Tailwind alerts on watched segments, with webhook delivery',
} as const;

export type RiderProDetail = keyof typeof RIDER_PRO_DETAILS;

/**
 * A withheld detail for a signed-in free rider. Unlike the public address's
 * hint (which says to create an account for the trial), it speaks to someone
 * who already has one: their trial, if any, is over, so the way is a Pro plan.
 */
export function riderLockedFeature(
  detail: RiderProDetail,
  session: RiderSession,
  urls: ResolvedUrls,
): LockedFeature {
  const description = RIDER_PRO_DETAILS[detail];
  const trialEnd = session.rider.trialEndsAt;
  const trial =
    trialEnd === null ? '' : `The Pro trial of this rider account ended at ${isoTime(trialEnd)}. `;
  return {
    feature: detail,
    description,
    plans: PLANS.filter((plan) => plan.features.includes(description)).map((plan) => plan.id),
    how_to_unlock: `${trial}Move this rider account to a Pro plan (see pricing_url); it applies from the next call, with the same connection.`,
    pricing_url: urls.pricing,
  };
}
