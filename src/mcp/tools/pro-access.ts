import { hasProAccess } from '../../core/rider-rules.ts';
import { findRiderById } from '../../store/repositories/riders.ts';
import type { z } from 'zod';
import type { ToolContext } from '../context.ts';
import { lockedFeature, signedInLockedFeature, type ProDetail } from '../report/pro-details.ts';
import type { LockedFeatureSchema } from '../schemas/common.ts';

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
  const rider = await findRiderById(context.store.db, context.caller.riderId);
  if (rider === undefined) return anonymous;
  return {
    pro: hasProAccess(rider, Math.floor(context.now() / 1000)),
    lock: (detail) => signedInLockedFeature(detail, rider.trialEndsAt, context.urls),
  };
}
