import { foldName } from '../names.ts';
import { boundedEditDistance } from '../../core/edit-distance.ts';
import type { Place } from './types.ts';

/**
 * How much a match counts, by how the name is recorded for the place: its
 * own name (or one part of a two-language name such as "Donostia / San
 * Sebastián"); an alternate name that is a close spelling of it ("Gerona"
 * for Girona, "Bruges" for Brugge, "Geneva" for Genève); any other
 * alternate name ("Cologne" for Köln). A place's score is its population
 * times this weight: a close spelling beats a town of that very name half
 * its size or less, any other alternate name one a twentieth or less, or
 * one up to half its size when it is another form of a large city's name
 * known in many languages (see `alternateWeight`).
 */
export const NAME_WEIGHTS = { own: 1, spelling: 1 / 2, alternate: 1 / 20 } as const;

/**
 * An alternate name that is another form of a large city's name counts this
 * share of its population per alternate name GeoNames records for the city,
 * from NAME_WEIGHTS.alternate (five names or fewer) up to
 * NAME_WEIGHTS.spelling (fifty or more). An exonym is the name another
 * language gives a place, and a city named in many languages is one that
 * speakers of those languages know and ask for: "Brunswick" is Braunschweig
 * (244,715 people, 45 names) rather than Brunswick, Ohio (34,689), "Padua"
 * is Padova (203,725, 24 names) rather than Padua, Colombia (19,311).
 *
 * Measured (docs/decisions/0017-names-known-in-many-languages.md): every
 * share up to 1/200 gives the places survey and the cycling places list the
 * same answers (Padua is lost from 1/250); of the 20,867 keys naming two
 * towns or more, 70 change their first answer at 1/50, 59 at 1/100 and 43 at
 * 1/200 against the fixed 1/20, so 1/100.
 */
export const ALTERNATE_WEIGHT_PER_NAME = 1 / 100;

/**
 * Only a city of this many people or more has its alternate names weighed by
 * their number. Exonyms are given to cities known abroad; the other names
 * GeoNames records for smaller places are mostly former names, neighbouring
 * places' names and transliterations: weighing them too changed 348 first
 * answers instead of 59, many to a larger place next door ("Indian Wells" to
 * Indio).
 */
export const NAMES_COUNT_FROM_POPULATION = 100_000;

/**
 * …and only an alternate name beginning with the same letters as the own
 * name (this many): a form of that name, as exonyms mostly are (Padua and
 * Padova, Brunswick and Braunschweig, Hanover, Lucerne, Warsaw). Large
 * cities also list the names of districts and neighbours ("Fairview" for
 * Costa Mesa, "Hudson" for Jersey City), and weighing every alternate name
 * changed 184 first answers instead of 59, mostly wrongly; one letter 86,
 * three 40 but without Brunswick.
 */
export const SAME_START = 2;

/** The weight of an alternate name that is another form of the name, for a place of `population` people with `names` alternate names. */
export function alternateWeight(
  names: number,
  population: number | null = NAMES_COUNT_FROM_POPULATION,
): number {
  if ((population ?? 0) < NAMES_COUNT_FROM_POPULATION) return NAME_WEIGHTS.alternate;
  return Math.min(NAME_WEIGHTS.spelling, Math.max(NAME_WEIGHTS.alternate, names * ALTERNATE_WEIGHT_PER_NAME));
}

/** The weight of `folded` as a name of `place` (see NAME_WEIGHTS). */
export function nameWeight(place: Place & { readonly names?: number }, folded: string): number {
  const parts = place.name.split('/').map(foldName);
  const own = foldName(place.name);
  if (own === folded || parts.includes(folded)) return NAME_WEIGHTS.own;
  const allowed = folded.length <= 5 ? 1 : 2;
  if (boundedEditDistance(folded, own, allowed) <= allowed) return NAME_WEIGHTS.spelling;
  const start = folded.slice(0, SAME_START);
  return parts.some((part) => part.slice(0, SAME_START) === start)
    ? alternateWeight(place.names ?? 0, place.population)
    : NAME_WEIGHTS.alternate;
}
