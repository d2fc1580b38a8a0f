import { foldName } from '../names.ts';
import { boundedEditDistance } from './edit-distance.ts';
import type { Place } from './types.ts';

/**
 * How much a match counts, by how the name is recorded for the place: its
 * own name (or one part of a two-language name such as "Donostia / San
 * Sebastián"); an alternate name that is a close spelling of it ("Gerona"
 * for Girona, "Bruges" for Brugge, "Geneva" for Genève); any other
 * alternate name ("Cologne" for Köln). A place's score is its population
 * times this weight: a close spelling beats a town of that very name half
 * its size or less, any other alternate name one a twentieth or less.
 */
export const NAME_WEIGHTS = { own: 1, spelling: 1 / 2, alternate: 1 / 20 } as const;

/** The weight of `folded` as a name of `place` (see NAME_WEIGHTS). */
export function nameWeight(place: Place, folded: string): number {
  const own = foldName(place.name);
  if (own === folded || place.name.split('/').some((part) => foldName(part) === folded))
    return NAME_WEIGHTS.own;
  const allowed = folded.length <= 5 ? 1 : 2;
  return boundedEditDistance(folded, own, allowed) <= allowed
    ? NAME_WEIGHTS.spelling
    : NAME_WEIGHTS.alternate;
}
