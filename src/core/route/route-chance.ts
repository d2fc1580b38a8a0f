import type { EnsembleSample } from '../ensemble-chance.ts';
import type { PowerModelParams } from '../power-model.ts';
import { HOUR_S } from '../tailwind-window.ts';
import type { RouteLeg } from './route-geometry.ts';
import { rideTimeS } from './route-ride.ts';
import { legWindEffect } from './route-wind.ts';

/** The members' verdict on one start: how many of them make the ride faster than in still air. */
export interface GainChance {
  readonly reaching: number;
  readonly members: number;
  /** `reaching / members`, unrounded. */
  readonly chance: number;
}

export interface StartChanceInput {
  readonly legs: readonly RouteLeg[];
  /** For each leg, the sample (place) it is ridden in, as for the deterministic starts. */
  readonly legSample: readonly number[];
  /** Seconds from the start to the middle of each leg at the still-air pace (`stillAirSchedule`). */
  readonly midS: readonly number[];
  /** Per sample, the ensemble hours by their start time; null = no ensemble there. */
  readonly ensemble: readonly (ReadonlyMap<number, EnsembleSample> | null)[];
  readonly powerW: number;
  readonly params: PowerModelParams;
  /** Ride time in still air, seconds (the same for every member). */
  readonly stillAirS: number;
}

/**
 * The chance that a ride from `startS` gains time against still air: each
 * member rides the route with its own wind on every leg (in the hour and
 * place the deterministic judgement uses), and the chance is the share of
 * members whose ride time is shorter. Null when a leg's place or hour has no
 * members, or places disagree on the member count: a probability from part
 * of the route would be a guess.
 */
export function startGainChance(input: StartChanceInput, startS: number): GainChance | null {
  const { legs } = input;
  const hours: EnsembleSample[] = [];
  for (let i = 0; i < legs.length; i++) {
    const at = startS + (input.midS[i] ?? 0);
    const hour = input.ensemble[input.legSample[i] ?? -1]?.get(Math.floor(at / HOUR_S) * HOUR_S);
    if (!hour) return null;
    hours.push(hour);
  }
  const members = hours[0]?.speedKmh.length ?? 0;
  if (members === 0) return null;
  if (hours.some((h) => h.speedKmh.length !== members || h.directionDeg.length !== members)) return null;
  let reaching = 0;
  const tailwinds = new Array<number>(legs.length);
  for (let m = 0; m < members; m++) {
    legs.forEach((leg, i) => {
      const hour = hours[i];
      const wind = { speedKmh: hour?.speedKmh[m] ?? NaN, directionDeg: hour?.directionDeg[m] ?? NaN };
      tailwinds[i] = legWindEffect(leg, wind).tailwindKmh;
    });
    const seconds = rideTimeS(legs, input.powerW, tailwinds, input.params);
    if (!Number.isFinite(seconds)) return null;
    if (seconds < input.stillAirS) reaching += 1;
  }
  return { reaching, members, chance: reaching / members };
}
