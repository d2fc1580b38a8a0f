import type { LatLon } from '../../core/bearing.ts';
import { greatCircleM } from '../../core/distance.ts';
import type { DiscoveredSegment } from './segment-records.ts';

/**
 * A segment found again keeps its id: when an area is mapped again (a newer
 * extract, a refresh), a climb or stretch whose start and end did not move
 * takes the id it had, even if its name changed, so riders' watches and
 * assistants' links keep pointing at it. "Did not move" allows what a newer
 * extract's redrawn road and the 50 m sampling move an end by.
 */
export const SAME_ENDS_M = 150;

/** What a stored segment tells of itself for the match: its id, kind and ends. */
export interface StoredEnds {
  readonly id: string;
  readonly kind: string | undefined;
  readonly start: LatLon;
  readonly end: LatLon;
}

/** The ends of a stored GeoJSON feature; null for text that is not one. */
export function storedEnds(featureText: string): StoredEnds | null {
  try {
    const feature = JSON.parse(featureText) as {
      properties?: { id?: unknown; kind?: unknown };
      geometry?: { coordinates?: unknown };
    };
    const id = feature.properties?.id;
    const line = feature.geometry?.coordinates;
    if (typeof id !== 'string' || !Array.isArray(line) || line.length < 2) return null;
    const [first, last] = [line[0] as number[], line.at(-1) as number[]];
    return {
      id,
      kind: typeof feature.properties?.kind === 'string' ? feature.properties.kind : undefined,
      start: { lon: Number(first[0]), lat: Number(first[1]) },
      end: { lon: Number(last[0]), lat: Number(last[1]) },
    };
  } catch {
    return null;
  }
}

/**
 * `found` with the ids of `previous` where a segment of the same kind starts
 * and ends within `SAME_ENDS_M` of a previous one (the nearest, each previous
 * id given once); the others keep the ids discovery gave them.
 */
export function keepStableIds(
  previous: readonly StoredEnds[],
  found: readonly DiscoveredSegment[],
): DiscoveredSegment[] {
  const free = new Set(previous);
  return found.map((segment) => {
    const start = segment.polyline[0];
    const end = segment.polyline.at(-1);
    if (start === undefined || end === undefined) return segment;
    let best: StoredEnds | undefined;
    let bestM = Infinity;
    for (const old of free) {
      if (old.kind !== undefined && old.kind !== segment.kind) continue;
      const a = greatCircleM(start, old.start);
      const b = greatCircleM(end, old.end);
      if (a > SAME_ENDS_M || b > SAME_ENDS_M || a + b >= bestM) continue;
      [best, bestM] = [old, a + b];
    }
    if (best === undefined) return segment;
    free.delete(best);
    return best.id === segment.id ? segment : { ...segment, id: best.id };
  });
}
