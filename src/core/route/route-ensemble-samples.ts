import type { LatLon } from '../bearing.ts';
import type { RouteSamples } from './route-ride.ts';

/**
 * The ensemble models behind the chance of a tailwind (ECMWF IFS and NCEP
 * GEFS) are 0.25° grids: about 28 km north–south, 20 km east–west at 45°N.
 * Two ensemble points closer than that mostly read the same grid cell, so
 * the chance of a route is read at most every 25 km.
 */
export const ROUTE_ENSEMBLE_SPACING_KM = 25;

/**
 * At most 12 ensemble points per route: one per grid cell for a 275 km ride
 * (the longest a rider commonly plans in a day), and 12 × 10.2 ≈ 122 calls of
 * Open-Meteo request weight for the 51 ECMWF members with a cold cache,
 * instead of 612 for the 60 forecast samples a long route has. Past 275 km
 * the points spread wider than the grid: the chance then judges the wind at
 * 12 places along the route, each standing for the forecast samples nearest it.
 */
export const MAX_ROUTE_ENSEMBLE_SAMPLES = 12;

/** Which forecast samples the ensemble is read at, and which of them each forecast sample rides. */
export interface RouteEnsembleSamples {
  /** Indices into the route's samples, in order from the start; always the start and (if apart) the end. */
  readonly picks: readonly number[];
  /** The picked samples' points, where the ensemble is asked. */
  readonly points: readonly LatLon[];
  /** For each of the route's samples, the index into `picks` of the nearest pick along the route. */
  readonly nearest: readonly number[];
}

/**
 * Thins a route's forecast samples to the ensemble's: evenly spaced along the
 * route, no closer than {@link ROUTE_ENSEMBLE_SPACING_KM} and no more than
 * {@link MAX_ROUTE_ENSEMBLE_SAMPLES}, the first and last always kept; every
 * forecast sample then takes its members from the nearest pick (by distance
 * along the route; the earlier on a tie). Pure.
 */
export function routeEnsembleSamples(
  samples: Pick<RouteSamples, 'atKm' | 'points'>,
  max = MAX_ROUTE_ENSEMBLE_SAMPLES,
  spacingKm = ROUTE_ENSEMBLE_SPACING_KM,
): RouteEnsembleSamples {
  const n = samples.atKm.length;
  if (n === 0) return { picks: [], points: [], nearest: [] };
  const lengthKm = samples.atKm[n - 1] ?? 0;
  const wanted = Math.min(n, Math.max(1, max), Math.max(2, Math.ceil(lengthKm / spacingKm - 1e-9) + 1));
  const picks: number[] = [];
  for (let j = 0; j < wanted; j++) {
    const index = wanted === 1 ? 0 : Math.round((j * (n - 1)) / (wanted - 1));
    if (picks.at(-1) !== index) picks.push(index);
  }
  const nearest: number[] = [];
  let p = 0;
  for (let k = 0; k < n; k++) {
    const at = samples.atKm[k] ?? 0;
    while (
      p + 1 < picks.length &&
      Math.abs((samples.atKm[picks[p + 1] ?? 0] ?? 0) - at) <
        Math.abs((samples.atKm[picks[p] ?? 0] ?? 0) - at)
    )
      p++;
    nearest.push(p);
  }
  const points = picks.flatMap((i) => samples.points[i] ?? []);
  return { picks, points, nearest };
}
