/**
 * The headline of a list of segments near a place, for every surface (the REST list's `headline`,
 * the first line of `find_tailwind_segments`, the segments page): a list whose segments all lie
 * beyond the radius says so first, with how far they are, so "3 segments near Girona" can no longer
 * head three climbs 110 km away in Andorra.
 */
export interface ListFacts {
  /** The place as the answer names it ("Girona, ES"). */
  readonly placeName: string;
  readonly radiusKm: number;
  /** Whether the listed segments lie within the radius (else they are the nearest beyond it). */
  readonly withinRadius: boolean;
  /** Each listed segment's distance from the place, km. */
  readonly distancesKm: readonly number[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 segments within 25 km of Girona, ES", or "No segment within 25 km of Girona, ES: the 3 nearest are 109–112 km away". */
export function listHeadline({ placeName, radiusKm, withinRadius, distancesKm }: ListFacts): string {
  const count = distancesKm.length;
  if (withinRadius && count > 0)
    return `${plural(count, 'segment', 'segments')} within ${radiusKm} km of ${placeName}`;
  const none = `No segment within ${radiusKm} km of ${placeName}`;
  if (count === 0) return none;
  const near = Math.round(Math.min(...distancesKm));
  const far = Math.round(Math.max(...distancesKm));
  const span = near === far ? `${near} km` : `${near}–${far} km`;
  return count === 1
    ? `${none}: the nearest is ${span} away`
    : `${none}: the ${count} nearest are ${span} away`;
}
