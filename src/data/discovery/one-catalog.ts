import { greatCircleM } from '../../core/distance.ts';
import { startOf, endOf } from '../segments/segment-geometry.ts';
import type { Segment } from '../segments/types.ts';
import type { DiscoveredSegment } from './segment-records.ts';

/**
 * How far a hand-traced climb's start and top may lie from a discovered one's
 * for the two to be one climb: the hand tracing says its points "may be
 * several hundred metres off", and where a climb is said to begin varies by
 * as much again.
 */
export const SAME_CLIMB_REACH_M = 1_500;
/** And their lengths may differ by this share at most (the same ends on a different road would not). */
const SAME_LENGTH_SHARE = 0.35;

function isSameClimb(hand: Segment, found: DiscoveredSegment): boolean {
  if (found.kind !== 'climb') return false;
  if (greatCircleM(startOf(hand), startOf(found)) > SAME_CLIMB_REACH_M) return false;
  if (greatCircleM(endOf(hand), endOf(found)) > SAME_CLIMB_REACH_M) return false;
  return Math.abs(hand.distanceM - found.distanceM) <= SAME_LENGTH_SHARE * hand.distanceM;
}

/**
 * One catalog from two sources: a discovered climb that is a hand-traced one
 * keeps the hand-traced id, name, aliases and editorial rank (riders' watches
 * and assistants' links keep working) and takes the real geometry and
 * figures; its source says both. Returns the discovered list with those
 * adoptions made and the ids of the hand-traced entries they replace.
 */
export function adoptHandTraced(
  handTraced: readonly Segment[],
  discovered: readonly DiscoveredSegment[],
): { segments: DiscoveredSegment[]; replaced: Set<string> } {
  const replaced = new Set<string>();
  const taken = new Set<DiscoveredSegment>();
  const byDiscovered = new Map<DiscoveredSegment, Segment>();
  for (const hand of handTraced) {
    let best: DiscoveredSegment | undefined;
    let bestM = Infinity;
    for (const found of discovered) {
      if (taken.has(found) || !isSameClimb(hand, found)) continue;
      const offM = greatCircleM(startOf(hand), startOf(found)) + greatCircleM(endOf(hand), endOf(found));
      if (offM < bestM) [best, bestM] = [found, offM];
    }
    if (best === undefined) continue;
    taken.add(best);
    replaced.add(hand.id);
    byDiscovered.set(best, hand);
  }
  const segments = discovered.map((found) => {
    const hand = byDiscovered.get(found);
    if (hand === undefined) return found;
    return {
      ...found,
      id: hand.id,
      name: hand.name,
      aliases: [...new Set([...hand.aliases, found.name])].filter((alias) => alias !== hand.name),
      countryCode: hand.countryCode,
      popularityRank: hand.popularityRank,
      rankedBy: 'editorial rank (hand-picked)',
      source: `Named and ranked by hand by wind-on-segment; line and figures ${found.source.replace(/^Found by wind-on-segment /, 'found ')}`,
    };
  });
  return { segments, replaced };
}
