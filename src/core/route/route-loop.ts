import type { RouteLeg } from './route-geometry.ts';
import { fastestFirst, type StartJudgement } from './route-starts.ts';

/*
 * The shape rules (closed-route detection, reversal) live in route-shape.ts,
 * apart from the start judging here: the browser calculator needs the shape
 * without the forecast and daylight code (and its sun tables) that judging
 * starts pulls in.
 */
export { CLOSED_ROUTE_GAP_M, CLOSED_ROUTE_GAP_SHARE, reverseRoute, routeShape } from './route-shape.ts';

/**
 * For each leg of the reversed route, the forward route's forecast sample
 * nearest its middle, so the reversed ride is judged in the same forecast
 * (no second request): the same rule as `routeSamples`, counted from the
 * other end.
 */
export function reversedLegSamples(
  reversedLegs: readonly RouteLeg[],
  distanceKm: number,
  spacingKm: number,
  lastSample: number,
): number[] {
  return reversedLegs.map((leg) =>
    Math.min(
      lastSample,
      Math.max(0, Math.round((distanceKm - (leg.fromKm + leg.lengthM / 2000)) / spacingKm)),
    ),
  );
}

/** A start time with the direction it is best ridden in, and the other direction's judgement. */
export interface DirectedStart extends StartJudgement {
  readonly reversed: boolean;
  /** The same start ridden the other way round; null when that ride does not fit the forecast. */
  readonly other: StartJudgement | null;
}

/**
 * Pairs each start of the route as given with the same start reversed and
 * keeps, per start, the faster ride among the rideable ones (as given on a
 * tie; a start rideable in neither way keeps its refusals). Both rides are
 * at the same power from the same hour.
 */
export function pairDirections(
  asGiven: readonly StartJudgement[],
  reversed: readonly StartJudgement[],
): DirectedStart[] {
  const back = new Map(reversed.map((j) => [j.startS, j]));
  const forth = new Map(asGiven.map((j) => [j.startS, j]));
  const times = [...new Set([...forth.keys(), ...back.keys()])].sort((a, b) => a - b);
  return times.map((startS) => {
    const a = forth.get(startS);
    const b = back.get(startS);
    if (a === undefined) return { ...(b as StartJudgement), reversed: true, other: null };
    if (b === undefined) return { ...a, reversed: false, other: null };
    const aOk = a.refusals.length === 0;
    const bOk = b.refusals.length === 0;
    const takeB = bOk && (!aOk || fastestFirst(a, b) > 0);
    return takeB ? { ...b, reversed: true, other: a } : { ...a, reversed: false, other: b };
  });
}
