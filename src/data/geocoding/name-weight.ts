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
 * its size or less, any other alternate name one a twentieth or less, or
 * more for a place known in many languages (see `alternateWeight`).
 */
export const NAME_WEIGHTS = { own: 1, spelling: 1 / 2, alternate: 1 / 20 } as const;

/**
 * An alternate name counts this share of a place's population per alternate
 * name GeoNames records for the place, from NAME_WEIGHTS.alternate (five
 * names or fewer) up to NAME_WEIGHTS.spelling (fifty or more). An exonym is
 * the name another language gives a place, and a place named in many
 * languages is one that speakers of those languages know and ask for:
 * "Brunswick" is Braunschweig (244,715 people, 45 names) rather than
 * Brunswick, Ohio (34,689, 15 names), "Padua" is Padova (203,725, 24 names)
 * rather than Padua, Colombia (19,311, none). Measured on the places survey
 * (tests/fixtures/places/survey.json) and the cycling places list, every
 * share up to 1/200 per name gives the same answers (Padua is lost from
 * 1/250); over 20,000 names drawn from the gazetteer a larger share moves a
 * few more first answers to a larger place (21 at 1/50, 18 at 1/100, 16 at
 * 1/200, against the fixed 1/20), so 1/100.
 */
export const ALTERNATE_WEIGHT_PER_NAME = 1 / 100;

/**
 * Only a place of this many people or more has its alternate names weighed
 * by their number. Exonyms are given to cities known abroad; the other names
 * GeoNames records for smaller places are mostly former names, neighbouring
 * places' names and transliterations, and weighing them too moved the first
 * answer of four times as many of 20,000 names drawn from the gazetteer, to
 * the larger place next door (Indian Wells to Indio) or to one abroad.
 */
export const NAMES_COUNT_FROM_POPULATION = 100_000;

/** The weight of an alternate name that is no close spelling, for a place of `population` people with `names` alternate names. */
export function alternateWeight(
  names: number,
  population: number | null = NAMES_COUNT_FROM_POPULATION,
): number {
  if ((population ?? 0) < NAMES_COUNT_FROM_POPULATION) return NAME_WEIGHTS.alternate;
  return Math.min(NAME_WEIGHTS.spelling, Math.max(NAME_WEIGHTS.alternate, names * ALTERNATE_WEIGHT_PER_NAME));
}

/** The weight of `folded` as a name of `place` (see NAME_WEIGHTS). */
export function nameWeight(place: Place & { readonly names?: number }, folded: string): number {
  const own = foldName(place.name);
  if (own === folded || place.name.split('/').some((part) => foldName(part) === folded))
    return NAME_WEIGHTS.own;
  const allowed = folded.length <= 5 ? 1 : 2;
  return boundedEditDistance(folded, own, allowed) <= allowed
    ? NAME_WEIGHTS.spelling
    : alternateWeight(place.names ?? 0, place.population);
}
