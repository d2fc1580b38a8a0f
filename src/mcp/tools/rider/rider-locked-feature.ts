import type { ResolvedUrls } from '../../../http/public-urls.ts';
import type { z } from 'zod';
import { signedInLockedFeature, type ProDetail } from '../../report/pro-details.ts';
import type { LockedFeatureSchema } from '../../schemas/common.ts';
import type { RiderSession } from './rider-context.ts';

/** A withheld detail for the signed-in rider of this call (see {@link signedInLockedFeature}). */
export function riderLockedFeature(
  detail: ProDetail,
  session: RiderSession,
  urls: ResolvedUrls,
): z.infer<typeof LockedFeatureSchema> {
  return signedInLockedFeature(detail, session.rider.trialEndsAt, urls);
}
