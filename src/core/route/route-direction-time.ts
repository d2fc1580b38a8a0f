import type { PowerModelParams } from '../power-model.ts';
import type { RouteLeg } from './route-geometry.ts';
import { rideTimeS } from './route-ride.ts';
import { legWindEffect, type LegWind } from './route-wind.ts';

/**
 * Sixteen compass directions for the time-cost chart: a loop's time cost
 * changes smoothly with the wind direction, so finer spokes add bytes and
 * rows, not information.
 */
export const TIME_POLAR_STEP_DEG = 22.5;

/** Time gained (s, negative when lost) against still air riding `legs` at `powerW` in one steady wind. */
export function steadyWindGainS(
  legs: readonly RouteLeg[],
  wind: LegWind,
  powerW: number,
  params: PowerModelParams,
): number {
  const still = rideTimeS(legs, powerW, [], params);
  const windy = rideTimeS(
    legs,
    powerW,
    legs.map((leg) => legWindEffect(leg, wind).tailwindKmh),
    params,
  );
  return still - windy;
}

/** A closed route judged both ways round in one steady wind, at the same power. */
export interface DirectionTimes {
  /** Still-air ride time (s) as given; reversed differs only through the grades. */
  readonly stillAirS: number;
  readonly asGivenGainedS: number;
  readonly reversedGainedS: number;
  /** The faster way round; "same" when the two differ by under a second (nothing a rider feels). */
  readonly faster: 'as_given' | 'reversed' | 'same';
}

/**
 * Both directions of a route in a steady wind: what the browser calculator
 * shows for a loop or an out-and-back, with the same rule as `get_route_wind`
 * (reverse the points, ride at the same power, compare time gained).
 */
export function directionTimes(
  legs: readonly RouteLeg[],
  reversedLegs: readonly RouteLeg[],
  wind: LegWind,
  powerW: number,
  params: PowerModelParams,
): DirectionTimes {
  const asGivenGainedS = steadyWindGainS(legs, wind, powerW, params);
  const reversedGainedS = steadyWindGainS(reversedLegs, wind, powerW, params);
  const gap = asGivenGainedS - reversedGainedS;
  return {
    stillAirS: rideTimeS(legs, powerW, [], params),
    asGivenGainedS,
    reversedGainedS,
    faster: Math.abs(gap) < 1 ? 'same' : gap > 0 ? 'as_given' : 'reversed',
  };
}

/** One spoke of the time-cost chart: the wind's from-direction and the time it gains each way round. */
export interface TimePolarEntry {
  readonly directionDeg: number;
  readonly asGivenGainedS: number;
  readonly reversedGainedS: number;
}

/**
 * Time gained against still air for a wind of `speedKmh` from each of 16
 * directions, both ways round. Unlike the length-weighted tailwind, which is
 * zero from every direction on a route that ends where it starts, this is
 * what a loop rider feels: a headwind costs more time than the same
 * tailwind gives back, most where the route runs longest into it.
 */
export function timeCostPolar(
  legs: readonly RouteLeg[],
  reversedLegs: readonly RouteLeg[],
  speedKmh: number,
  powerW: number,
  params: PowerModelParams,
): TimePolarEntry[] {
  return Array.from({ length: Math.round(360 / TIME_POLAR_STEP_DEG) }, (_, i) => {
    const wind = { speedKmh, directionDeg: i * TIME_POLAR_STEP_DEG };
    return {
      directionDeg: wind.directionDeg,
      asGivenGainedS: steadyWindGainS(legs, wind, powerW, params),
      reversedGainedS: steadyWindGainS(reversedLegs, wind, powerW, params),
    };
  });
}
