import type { PathClimb } from './climb-paths.ts';
import { measureSpan, smoothProfile, CLIMB_RULE, type ClimbRule } from './climb-rule.ts';
import { settlementIn, type PlaceIndex, type PlaceKind } from './segment-name.ts';

/**
 * Where a climb starts for a rider: where the road leaves the valley. A long
 * valley road rising gently to a village and then climbing hard is, for a
 * rider and in the guides, a climb from that village: Ordino-Arcalís is
 * given from El Serrat, where the valley road turns into the ski-station
 * road; Els Cortals from Encamp, where it leaves the main road. The gentle
 * approach is not part of the climb. Pure.
 */

/**
 * The road above a settlement must be at least this many times as steep as
 * the road below it for the climb to start there: Arcalís's 6.9 % above El
 * Serrat against 3.5 % below is a new climb; Envalira's 5.3 % above Canillo
 * against 4.7 % below is the same climb going on.
 */
export const STEEPENING = 1.6;

/** The part above the settlement must gain at least this share of the whole climb's height. */
export const PROPER_SHARE = 2 / 3;

/** Settlements along a climb are looked for this often, metres. */
const PROBE_M = 100;

/** Guides start a climb in a town or village before a hamlet. */
const KIND_ORDER: readonly PlaceKind[] = ['city', 'town', 'village', 'hamlet'];

/**
 * `climb` from the settlement along it where the road steepens (see
 * {@link STEEPENING}), or `climb` itself when there is none or the part above
 * would not be a climb on its own. Both parts must be at least the rule's
 * shortest climb, so a village at the foot or near the top changes nothing.
 * Of several such settlements, the biggest kind wins, then the sharpest
 * steepening.
 */
export function fromWhereItSteepens(
  climb: PathClimb,
  places: PlaceIndex,
  rule: ClimbRule = CLIMB_RULE,
): PathClimb {
  const { profile, span } = climb;
  const smooth = smoothProfile(
    { distanceM: profile.samples.map((s) => s.distanceM), elevationM: profile.heights },
    rule.smoothingM,
  );
  const d = (i: number) => smooth.distanceM[i] ?? 0;
  const h = (i: number) => smooth.elevationM[i] ?? 0;
  const s = span.startIndex;
  const e = span.endIndex;
  let best: { index: number; rank: number; ratio: number } | null = null;
  let next = 0;
  for (let k = s + 1; k < e; k++) {
    if (d(k) - d(s) < rule.minLengthM || d(e) - d(k) < rule.minLengthM || d(k) < next) continue;
    // Looked for every 100 m: settlements are hundreds of metres across.
    next = d(k) + PROBE_M;
    const settlement = settlementIn(places, profile.samples[k] as { lat: number; lon: number });
    if (!settlement) continue;
    const below = Math.max((h(k) - h(s)) / (d(k) - d(s)), 0.001);
    const ratio = (h(e) - h(k)) / (d(e) - d(k)) / below;
    const rank = KIND_ORDER.indexOf(settlement.place.kind);
    // The climb proper gains most of the height: a steep last kilometre after a long climb starts nothing.
    if (ratio < STEEPENING || h(e) - h(k) < PROPER_SHARE * (h(e) - h(s))) continue;
    if (best === null || rank < best.rank || (rank === best.rank && ratio > best.ratio)) {
      best = { index: k, rank, ratio };
    }
  }
  if (best === null) return climb;
  const part = measureSpan(smooth, best.index, e, rule);
  const meets =
    part.lengthM >= rule.minLengthM &&
    part.netRiseM >= rule.minGainM &&
    part.averageGradePct >= rule.minAverageGradePct;
  return meets ? { profile, span: part } : climb;
}
