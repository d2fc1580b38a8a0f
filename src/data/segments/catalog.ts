import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { LatLon } from '../../core/bearing.ts';
import { smallestSorted } from '../../core/smallest.ts';
import { foldName } from '../names.ts';
import { catalogDistanceM } from './segment-geometry.ts';
import type { NearbySegment, Segment, SegmentCatalog } from './types.ts';

/** Most popular first; equal ranks (possible in operator files) fall back to the id for a stable order. */
function byRank(a: Segment, b: Segment): number {
  return a.popularityRank - b.popularityRank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function byRankThenDistance(a: NearbySegment, b: NearbySegment): number {
  return (
    a.segment.popularityRank - b.segment.popularityRank ||
    a.distanceM - b.distanceM ||
    byRank(a.segment, b.segment)
  );
}

function buildNameIndex(segments: readonly Segment[]): Map<string, readonly Segment[]> {
  const byName = new Map<string, Segment[]>();
  for (const segment of segments) {
    const keys = new Set([segment.name, ...segment.aliases].map(foldName));
    for (const key of keys) {
      if (key === '') continue;
      const list = byName.get(key);
      if (list === undefined) byName.set(key, [segment]);
      else list.push(segment);
    }
  }
  for (const list of byName.values()) list.sort(byRank);
  return byName;
}

function buildStartIndex(segments: readonly Segment[]): KDBush {
  // kdbush needs at least one slot; an empty catalog gets a one-slot index it never queries.
  const index = new KDBush(Math.max(segments.length, 1));
  for (const segment of segments) {
    const start = segment.polyline[0];
    if (start === undefined) throw new Error(`Segment ${segment.id} has no points`);
    index.add(start.lon, start.lat);
  }
  if (segments.length === 0) index.add(0, 0);
  return index.finish();
}

/**
 * Builds the in-memory catalog once at start-up: a kd-tree over segment
 * starts (kdbush + geokdbush, great-circle aware, so radius searches stay
 * correct near the poles and the antimeridian), a map by id, and a map from
 * every folded name and alias. Queries then touch only what they return.
 */
export function createSegmentCatalog(segments: readonly Segment[]): SegmentCatalog {
  const list = [...segments];
  const byId = new Map<string, Segment>();
  for (const segment of list) {
    if (byId.has(segment.id)) throw new Error(`Duplicate segment id "${segment.id}"`);
    byId.set(segment.id, segment);
  }
  const index = buildStartIndex(list);
  const byName = buildNameIndex(list);

  return {
    size: list.length,
    get: (id) => byId.get(id),
    near(point: LatLon, radiusM: number, limit: number): readonly NearbySegment[] {
      if (list.length === 0 || !(radiusM >= 0) || !(limit >= 1)) return [];
      const found = around(index, point.lon, point.lat, Infinity, radiusM / 1000);
      const nearby: NearbySegment[] = [];
      for (const i of found) {
        const segment = list[i];
        const start = segment?.polyline[0];
        if (segment === undefined || start === undefined) continue;
        nearby.push({ segment, distanceM: Math.round(catalogDistanceM(point, start)) });
      }
      return smallestSorted(nearby, limit, byRankThenDistance);
    },
    nearest(point: LatLon, limit: number): readonly NearbySegment[] {
      if (list.length === 0 || !(limit >= 1)) return [];
      return around(index, point.lon, point.lat, Math.floor(limit)).flatMap((i) => {
        const segment = list[i];
        const start = segment?.polyline[0];
        return segment && start ? [{ segment, distanceM: Math.round(catalogDistanceM(point, start)) }] : [];
      });
    },
    findByName(query: string): readonly Segment[] {
      const key = foldName(query);
      return key === '' ? [] : [...(byName.get(key) ?? [])];
    },
  };
}
