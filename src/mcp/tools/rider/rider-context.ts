import { riderSegmentLookup, type SegmentLookup } from '../../../rider/segment-lookup.ts';
import { SCOPE_READ, SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { hasPaidAccess, paidAccessEnd, renewsAt } from '../../../core/billing-rules.ts';
import { hasProAccess, isInTrial, monthlyCallLimit, planNow } from '../../../core/rider-rules.ts';
import type { Store } from '../../../store/database.ts';
import { findRiderById, type Rider } from '../../../rider/rider-account.ts';
import type { ToolContext } from '../../context.ts';
import { isoTime } from '../../../core/time.ts';
import type { Access } from '../../schemas/rider.ts';
import { ToolError } from '../../tool.ts';

/** The signed-in rider as one call sees them: access is read from the store on every call. */
export interface RiderSession {
  readonly rider: Rider;
  readonly store: Store;
  /** Unix seconds, read once per call so the month, the trial and the usage agree. */
  readonly nowS: number;
  readonly proAccess: boolean;
  /** Calls allowed this month to the metered tools; null = no limit. */
  readonly monthlyLimit: number | null;
  /** Segment ids as this rider may use them: the catalog and their own segments (nobody else's). */
  readonly segments: SegmentLookup;
}

function scopeError(scope: string): ToolError {
  return scope === SCOPE_WRITE
    ? new ToolError(
        `This connection may only read the rider's data (it was granted ${SCOPE_READ}, not ${SCOPE_WRITE}). ` +
          'To change the watchlist, ask the rider to reconnect the rider address and allow changes.',
      )
    : new ToolError(
        `This connection was not granted ${SCOPE_READ}. Ask the rider to reconnect the rider address and allow reading.`,
      );
}

/**
 * The rider behind the call, or a tool error the assistant can act on. The
 * OAuth grant must carry `scope` (read tools need rider:read, the tools that
 * change the watchlist rider:write): the HTTP layer checks a request before it
 * knows which tool it calls, so the per-tool scope is checked here. Access
 * is recomputed from the stored plan and trial each time, so an upgrade or the
 * end of a trial applies to the very next call without reconnecting.
 */
export async function requireRider(
  context: ToolContext,
  scope: typeof SCOPE_READ | typeof SCOPE_WRITE = SCOPE_READ,
): Promise<RiderSession> {
  const { caller } = context;
  if (caller.kind !== 'rider') {
    throw new ToolError(
      `This tool needs a signed-in rider. Connect the rider address ${context.urls.mcp}/rider ` +
        '(the rider signs in when adding it) and call it there; find_tailwind_segments and get_segment work here.',
    );
  }
  if (!caller.scopes.includes(scope)) throw scopeError(scope);
  if (!context.store) throw new Error('the rider tools need McpDeps.store');
  const rider = await findRiderById(context.store.db, caller.riderId);
  if (!rider) {
    throw new ToolError(
      'The rider account behind this connection no longer exists. ' +
        'Ask the rider to remove the connection and add the rider address again, signing in anew.',
    );
  }
  const nowS = Math.floor(context.now() / 1000);
  return {
    rider,
    store: context.store,
    nowS,
    proAccess: hasProAccess(rider, nowS),
    monthlyLimit: monthlyCallLimit(rider, nowS),
    segments: riderSegmentLookup(context.catalog, context.store.db, rider.id),
  };
}

/** The `access` object of an answer. */
export function accessOf(session: RiderSession): Access {
  const { rider, nowS } = session;
  const paid = hasPaidAccess(rider.paid, nowS) ? rider.paid : null;
  const renewal = paid ? renewsAt(paid) : null;
  const end = paid ? paidAccessEnd(paid) : null;
  return {
    plan: planNow(rider, nowS),
    pro_access: session.proAccess,
    in_trial: isInTrial(rider, nowS),
    trial_ends_at: rider.trialEndsAt === null ? null : isoTime(rider.trialEndsAt),
    paid_plan: paid?.planId ?? null,
    renews_at: renewal === null ? null : isoTime(renewal),
    pro_until: renewal === null && typeof end === 'number' ? isoTime(end) : null,
  };
}
