/**
 * A rider's own segments, stored and removed with the rules every surface
 * applies alike: the allowance of the plan the rider has now (trial
 * included), the watchlist's size, and the watch that comes with each. The
 * MCP tools (`add_my_segment`, `get_route_wind`'s `save_as`,
 * `remove_my_segment`) and the settings page's upload and remove buttons all
 * call these; each words the refusals for its own reader.
 */
import type { Kysely } from 'kysely';
import { ownSegmentAllowance, WATCHLIST_MAX_SEGMENTS } from '../core/rider-rules.ts';
import {
  addRiderSegment,
  countRiderSegments,
  listClosedRiderSegments,
  listRiderSegments,
  removeRiderSegment,
  type AddOutcome,
  type NewRiderSegment,
  type RiderSegment,
} from '../store/repositories/rider-segments.ts';
import type { Rider } from '../store/repositories/riders.ts';
import type { Database } from '../store/schema.ts';

export type { AddOutcome, NewRiderSegment, RiderSegment };

/** The rider's own segments against their allowance now. */
export interface OwnSegmentCount {
  readonly used: number;
  readonly allowance: number;
}

/** The rider's own segments, oldest first. */
export function listOwnSegments(db: Kysely<Database>, riderId: string): Promise<RiderSegment[]> {
  return listRiderSegments(db, riderId);
}

/** Stores `segment` as the rider's own and watches it, or says which rule refused it (nothing stored). */
export async function addOwnSegment(
  db: Kysely<Database>,
  rider: Rider,
  segment: NewRiderSegment,
  settings: { readonly recordS?: number | undefined },
  nowS: number,
): Promise<AddOutcome & { readonly allowance: number }> {
  const allowance = ownSegmentAllowance(rider, nowS);
  const outcome = await addRiderSegment(
    db,
    rider.id,
    segment,
    {
      allowance,
      watchlistMax: WATCHLIST_MAX_SEGMENTS,
      ...(settings.recordS === undefined ? {} : { recordS: settings.recordS }),
    },
    nowS,
  );
  return { ...outcome, allowance };
}

/**
 * Removes one of the rider's own segments with its watch; false when the id
 * is not one of theirs (someone else's reads exactly like an unknown one).
 */
export function removeOwnSegment(db: Kysely<Database>, riderId: string, segmentId: string): Promise<boolean> {
  return removeRiderSegment(db, riderId, segmentId);
}

/** The rider's own segments against the allowance of the plan they have at `nowS`. */
export async function ownSegmentCount(
  db: Kysely<Database>,
  rider: Rider,
  nowS: number,
): Promise<OwnSegmentCount> {
  return { used: await countRiderSegments(db, rider.id), allowance: ownSegmentAllowance(rider, nowS) };
}

/**
 * The rider's own segments stored as a closed line (a loop or an out-and-back) before such lines
 * were refused, by id with their shape: their alerts can never fire, and the watchlist says so.
 */
export function closedOwnSegments(
  db: Kysely<Database>,
  riderId: string,
): Promise<ReadonlyMap<string, 'loop' | 'out_and_back'>> {
  return listClosedRiderSegments(db, riderId);
}
