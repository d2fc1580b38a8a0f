import { initialBearing } from '../../core/bearing.ts';
import { windComponents } from '../../core/wind.ts';
import type { LonLat } from '../map/map-input.ts';

/**
 * The signed tailwind on each part of a line for one wind, for colouring the
 * map part by part: a climb that turns through hairpins has the wind behind
 * on some bends and against on others, which one mean figure hides. Uses the
 * API's own formula (src/core/wind.ts) on each part's bearing.
 */
export function partTailwinds(
  line: readonly LonLat[],
  wind: { speedKmh: number; directionDeg: number },
): number[] {
  const values: number[] = [];
  for (let index = 1; index < line.length; index += 1) {
    const [fromLon, fromLat] = line[index - 1] as LonLat;
    const [toLon, toLat] = line[index] as LonLat;
    const bearingDeg = initialBearing({ lat: fromLat, lon: fromLon }, { lat: toLat, lon: toLon });
    values.push(windComponents({ ...wind, bearingDeg }).signedKmh);
  }
  return values;
}
