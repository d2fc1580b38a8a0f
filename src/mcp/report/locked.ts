import { PLANS, TRIAL_HOW_TO_START } from '../../core/plans.ts';
import type { ResolvedUrls } from '../../http/config.ts';
import type { z } from 'zod';
import type { LockedFeatureSchema } from '../schemas/common.ts';

type LockedFeature = z.infer<typeof LockedFeatureSchema>;

/** Pro-only details, named as the plan catalog's feature lines name them. */
export const PRO_DETAILS = {
  hourly_timeline: 'Hour-by-hour 72-hour wind timeline on every segment',
} as const;

export type ProDetail = keyof typeof PRO_DETAILS;

/**
 * Describes a withheld detail from the plan catalog itself, so the plans
 * that unlock it are exactly the plans whose feature list promises it.
 */
export function lockedFeature(detail: ProDetail, urls: ResolvedUrls): LockedFeature {
  const description = PRO_DETAILS[detail];
  return {
    feature: detail,
    description,
    plans: PLANS.filter((plan) => plan.features.includes(description)).map((plan) => plan.id),
    how_to_unlock: `${TRIAL_HOW_TO_START} Rider address: ${urls.mcp}/rider.`,
    pricing_url: urls.pricing,
  };
}
