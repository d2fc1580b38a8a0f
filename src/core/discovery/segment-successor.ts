import { initialBearing, type LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import { densify } from './road-samples.ts';

/**
 * Which segment of a new catalog takes over from one that is gone: when the
 * rules that find climbs change, a climb may get a new id (a fragment of
 * Envalira becomes Envalira, "CS-220 climb" becomes a named one), and a
 * rider who watched it should go on watching the road they chose. Pure.
 */

/** A segment's line and kind: all the rule reads. */
export interface SegmentLine {
  readonly id: string;
  readonly kind?: 'climb' | 'stretch' | undefined;
  readonly polyline: readonly LatLon[];
}

/** A point of the old line lies on the new one within this, riding the same way (headings within 45°). */
export const ON_LINE_M = 30;
/** The new segment must run along at least this share of the old one's line. */
export const MIN_COVER = 0.6;

const turn = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

/** The old line every 25 m, each point with the way it runs there. */
function headed(line: readonly LatLon[]): { point: LatLon; heading: number }[] {
  const points = densify(line, 25);
  return points
    .slice(0, -1)
    .map((point, i) => ({ point, heading: initialBearing(point, points[i + 1] as LatLon) }));
}

/** Share of `old`'s line that `candidate` runs along in the same direction. */
export function coverOf(old: SegmentLine, candidate: SegmentLine): number {
  const points = headed(old.polyline);
  if (points.length === 0) return 0;
  const theirs = headed(candidate.polyline);
  const on = points.filter(({ point, heading }) =>
    theirs.some((q) => greatCircleM(point, q.point) <= ON_LINE_M && turn(heading, q.heading) <= 45),
  ).length;
  return on / points.length;
}

/**
 * The successor of `old` among `candidates`: of the same kind, running along
 * at least {@link MIN_COVER} of its line the same way; of several, the one
 * covering most, then the one nearest in length. Null when none does (the
 * road is no longer a segment): a watchlist then says the segment is gone.
 */
export function successorOf<T extends SegmentLine>(old: SegmentLine, candidates: readonly T[]): T | null {
  const lengthOf = (line: readonly LatLon[]) =>
    line.slice(1).reduce((sum, point, i) => sum + greatCircleM(line[i] as LatLon, point), 0);
  const oldLength = lengthOf(old.polyline);
  let best: { candidate: T; cover: number; lengthOff: number } | null = null;
  for (const candidate of candidates) {
    if ((candidate.kind ?? 'climb') !== (old.kind ?? 'climb')) continue;
    const cover = coverOf(old, candidate);
    if (cover < MIN_COVER) continue;
    const lengthOff = Math.abs(lengthOf(candidate.polyline) - oldLength);
    if (
      best === null ||
      cover > best.cover + 1e-9 ||
      (Math.abs(cover - best.cover) <= 1e-9 && lengthOff < best.lengthOff)
    ) {
      best = { candidate, cover, lengthOff };
    }
  }
  return best?.candidate ?? null;
}
