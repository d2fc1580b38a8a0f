import type { ResolvedUrls } from '../../../http/public-urls.ts';
import type { z } from 'zod';
import { catalogLock, unlockUrl, type ProDetail } from '../../report/pro-details.ts';
import { isoTime } from '../../../core/time.ts';
import type { LockedFeatureSchema } from '../../schemas/common.ts';
import type { RiderSession } from './rider-context.ts';

type LockedFeature = z.infer<typeof LockedFeatureSchema>;

/**
 * A withheld detail for a signed-in free rider. Unlike the public address's
 * hint (which says to create an account for the trial), it speaks to someone
 * who already has one: their trial, if any, is over, so the way is a Pro plan.
 */
export function riderLockedFeature(
  detail: ProDetail,
  session: RiderSession,
  urls: ResolvedUrls,
): LockedFeature {
  const trialEnd = session.rider.trialEndsAt;
  const trial =
    trialEnd === null ? '' : `The Pro trial of this rider account ended at ${isoTime(trialEnd)}. `;
  return {
    ...catalogLock(detail),
    how_to_unlock: `${trial}The rider buys a Pro plan on the pricing page (pricing_url, Pro Monthly pre-selected; signed in with this rider account); it applies from the next call, with the same connection.`,
    pricing_url: unlockUrl(urls),
  };
}
