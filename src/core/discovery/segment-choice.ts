import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import { metresByClass, sharedM, type FoundSegment } from './found-segment.ts';
import type { RoadGraph } from './road-graph.ts';

/**
 * Which of the segments found are kept: no noise and no near-copies. Town
 * streets, lanes and service roads are no climbs (unless long and high), and
 * no two segments cover most of the same road in the same direction, except
 * two climbs to the same top from different towns (a guide lists both).
 * Pure.
 */

/** Road classes of lanes and streets: a segment mostly on these is noise, not a climb riders seek. */
export const MINOR_CLASSES: ReadonlySet<string> = new Set([
  'residential',
  'service',
  'track',
  'living_street',
]);
/** A segment is mostly minor roads when more than this share of it is. */
export const MINOR_SHARE = 0.5;
/**
 * …unless it climbs this much: a mountain road tagged as a residential
 * street or a paved track over its last kilometres still takes a rider up
 * half a kilometre.
 */
export const MINOR_EXCEPTION_RISE_M = 500;

/** Two segments may share at most this share of the shorter one's length in the same direction. */
export const MAX_SHARED = 0.5;
/** Two climbs whose tops lie this close end at the same top. */
export const SAME_TOP_M = 300;

/** True for a segment that lies mostly on lanes and streets and is not long and high enough to count anyway. */
export function isMostlyMinor(graph: RoadGraph, segment: FoundSegment): boolean {
  if (segment.figures.netRiseM >= MINOR_EXCEPTION_RISE_M) return false;
  let minor = 0;
  let all = 0;
  for (const [highway, metres] of metresByClass(graph, segment)) {
    all += metres;
    if (MINOR_CLASSES.has(highway)) minor += metres;
  }
  return all > 0 && minor > MINOR_SHARE * all;
}

/** What the choice needs to know of a segment besides where it runs. */
export interface Choosable {
  readonly found: FoundSegment;
  /** Higher is kept first: the bigger climb, the longer stretch. */
  readonly weight: number;
  /** The town or village the segment starts in, by name; null when it starts out of one (or at a hamlet). */
  readonly footTown: string | null;
}

const topOf = (segment: FoundSegment): LatLon => segment.samples.at(-1) as LatLon;

/**
 * Two climbs to the same top, from different towns: a guide lists each (La
 * Rabassa from Sant Julià, Coll de la Gallina from Aixovall and from
 * Bixessarri higher up), so each is kept though they share the road to the top.
 */
function areVariants(a: Choosable, b: Choosable): boolean {
  return (
    a.found.kind === 'climb' &&
    b.found.kind === 'climb' &&
    a.footTown !== null &&
    b.footTown !== null &&
    a.footTown !== b.footTown &&
    greatCircleM(topOf(a.found), topOf(b.found)) <= SAME_TOP_M
  );
}

/**
 * The segments to keep, heaviest first: each is kept unless it shares more
 * than {@link MAX_SHARED} of its own length or of a kept one's, in the same
 * direction, with a segment already kept that is not a variant of it from
 * another town. Ties go by the order given, so the same input always keeps
 * the same segments. `already` are kept before any candidate (and returned
 * with them).
 */
export function chooseDistinct<T extends Choosable>(
  candidates: readonly T[],
  already: readonly T[] = [],
): T[] {
  const order = candidates.map((candidate, index) => ({ candidate, index }));
  order.sort((a, b) => b.candidate.weight - a.candidate.weight || a.index - b.index);
  const kept: T[] = [...already];
  for (const { candidate } of order) {
    const clash = kept.some((other) => {
      const shorter = Math.min(other.found.figures.lengthM, candidate.found.figures.lengthM);
      return sharedM(other.found, candidate.found) > MAX_SHARED * shorter && !areVariants(other, candidate);
    });
    if (!clash) kept.push(candidate);
  }
  return kept;
}
