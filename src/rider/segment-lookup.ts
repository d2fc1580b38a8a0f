/**
 * The one place a segment id becomes a segment for a rider: the catalog
 * merged with that rider's own segments. Every rider tool, the settings API
 * and the alert job resolve ids here, so the privacy rule is written once: an
 * own segment is found only for its owner, and for anyone else (another
 * rider, the public address, which never gets a lookup) the id answers exactly
 * like an id that does not exist.
 *
 * Part of the rider domain (`src/rider`): above the catalog (`src/data`) and
 * the store, below every surface that resolves a rider's segment ids.
 */
import { isOwnSegmentId } from '../core/rider-rules.ts';
import { isOwnSegment, ownSegmentFrom, type OwnSegment } from '../data/segments/owned-segment.ts';
import type { Segment, SegmentCatalog } from '../data/segments/types.ts';
import type { Store } from '../store/database.ts';
import { findRiderSegments } from '../store/repositories/rider-segments.ts';

export interface SegmentLookup {
  get(id: string): Promise<Segment | undefined>;
  /** The ids found, catalog and own alike; one store query for all the own ones. */
  getMany(ids: readonly string[]): Promise<ReadonlyMap<string, Segment>>;
}

/** The catalog; a live one (online discovery) also loads stored discovered ids before they are read. */
type Catalog = Pick<SegmentCatalog, 'get'> & { load?(ids: readonly string[]): Promise<void> };
type Db = Store['db'];

async function ownSegments(db: Db, riderId: string, ids: readonly string[]): Promise<OwnSegment[]> {
  const own = ids.filter(isOwnSegmentId);
  if (own.length === 0) return [];
  const records = await findRiderSegments(db, riderId, own);
  return records.map((record) => ownSegmentFrom(record, riderId));
}

/** What `riderId` may see: the whole catalog and their own segments, nobody else's. */
export function riderSegmentLookup(catalog: Catalog, db: Db, riderId: string): SegmentLookup {
  const getMany = async (ids: readonly string[]): Promise<ReadonlyMap<string, Segment>> => {
    const found = new Map<string, Segment>();
    await catalog.load?.(ids.filter((id) => !isOwnSegmentId(id)));
    for (const segment of await ownSegments(db, riderId, ids)) found.set(segment.id, segment);
    for (const id of ids) {
      if (isOwnSegmentId(id)) continue;
      const segment = catalog.get(id);
      if (segment) found.set(id, segment);
    }
    return found;
  };
  return {
    getMany,
    get: async (id) => (await getMany([id])).get(id),
  };
}

/**
 * For the alert job, which reads every rider's watches: each pair resolved
 * with its own rider's lookup, so a watch on someone else's own segment (which
 * no tool lets anyone create) resolves to nothing.
 */
export async function resolveWatchedSegments(
  catalog: Catalog,
  db: Db,
  watches: readonly { readonly riderId: string; readonly segmentId: string }[],
): Promise<Segment[]> {
  const found = new Map<string, Segment>();
  const ownByRider = new Map<string, string[]>();
  await catalog.load?.(watches.map((w) => w.segmentId).filter((id) => !isOwnSegmentId(id)));
  for (const { riderId, segmentId } of watches) {
    if (!isOwnSegmentId(segmentId)) {
      const segment = catalog.get(segmentId);
      if (segment) found.set(segmentId, segment);
      continue;
    }
    ownByRider.set(riderId, [...(ownByRider.get(riderId) ?? []), segmentId]);
  }
  for (const [riderId, ids] of ownByRider) {
    for (const segment of await ownSegments(db, riderId, ids)) found.set(segment.id, segment);
  }
  return [...found.values()];
}

/**
 * Whether a watch by `riderId` may use this segment: any catalog one, only
 * their own of the rest. The alert job resolves a page's watches together, so
 * an own segment found for its owner must not serve another rider's watch row.
 */
export function watchMayUse(segment: Segment, riderId: string): boolean {
  return !isOwnSegment(segment) || segment.ownerId === riderId;
}
