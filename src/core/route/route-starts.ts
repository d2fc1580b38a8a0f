import type { LatLon } from '../bearing.ts';
import { civilDaylight, daylightSpanOf, type DaylightSpan } from '../daylight.ts';
import type { PowerModelParams } from '../power-model.ts';
import {
  flagsOf,
  refusalsOf,
  weatherExtremes,
  type Refusal,
  type RideFlag,
  type WeatherExtremes,
} from '../rideable.ts';
import { HOUR_S, type WindSample } from '../tailwind-window.ts';
import type { RouteLeg } from './route-geometry.ts';
import { legSpeedMs, rideTimeS, stillAirSchedule } from './route-ride.ts';
import { legWindEffect, routeWind, type LegWind, type RouteWind } from './route-wind.ts';

/** What a start needs from the forecast: per sample, its hours (null = no usable data there). */
export interface StartSearch {
  readonly legs: readonly RouteLeg[];
  /** For each leg, the sample it is ridden in (see `routeSamples`). */
  readonly legSample: readonly number[];
  readonly samplePoints: readonly LatLon[];
  readonly forecast: readonly (readonly WindSample[] | null)[];
  readonly powerW: number;
  readonly params: PowerModelParams;
  /** First and last start considered, unix seconds; starts fall on whole UTC hours in between. */
  readonly fromS: number;
  readonly untilS: number;
  readonly includeDarkness: boolean;
}

/** One start time, judged over the hours and places the rider will be. */
export interface StartJudgement extends WeatherExtremes {
  readonly startS: number;
  /** Length-weighted along-track wind over the ride at 10 m (positive = tailwind), unrounded. */
  readonly tailwindKmh: number;
  /**
   * Seconds the wind saves against still air at the rider's power (negative =
   * time it costs), unrounded: what the rider feels, so what starts are ranked by.
   */
  readonly timeGainedS: number;
  /** Ride time at the rider's power in still air, seconds: the same for every start of one direction. */
  readonly stillAirS: number;
  /** Why the ride from this start is not offered (empty = rideable). */
  readonly refusals: readonly Refusal[];
  readonly flags: readonly RideFlag[];
  readonly winds: readonly LegWind[];
}

/** A chosen start with everything the answer tells about it. */
export interface StartReport extends StartJudgement {
  readonly wind: RouteWind;
  /** Ride time at the rider's power in still air and in this forecast, seconds. */
  readonly stillAirS: number;
  readonly windyS: number;
}

export type StartStatus = 'found' | 'dark' | 'wet' | 'gusty' | 'wet_or_gusty' | 'beyond_forecast';

const FLAG_ORDER: readonly RideFlag[] = ['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot'];

/**
 * Judges every whole-hour start in the range whose ride fits in the
 * forecast: each leg is ridden in the forecast hour of its sample at the
 * time the rider reaches its middle (still-air pace), and each (place,
 * hour) visited is judged by the rideable rules of `rideable.ts` — daylight
 * at that moment unless darkness is allowed, rain and gusts — so a start
 * whose ride runs into dusk or a shower is refused, not merely flagged.
 */
export function judgeStarts(search: StartSearch): { judged: StartJudgement[]; schedule: { totalS: number } } {
  const { legs, legSample, forecast, samplePoints } = search;
  const schedule = stillAirSchedule(legs, search.powerW, search.params);
  const hourMaps = forecast.map((hours) => new Map((hours ?? []).map((h) => [h.time, h])));
  const usable = forecast.map((hours) => hours !== null && hours.length > 0);
  // A sample without data borrows the nearest sample that has some.
  const source = samplePoints.map((_, i) => {
    for (let d = 0; d < samplePoints.length; d++) {
      if (usable[i - d]) return i - d;
      if (usable[i + d]) return i + d;
    }
    return -1;
  });
  const lastHour = Math.max(...forecast.flatMap((hours) => (hours ?? []).map((h) => h.time)));
  const daylight: (readonly DaylightSpan[])[] = samplePoints.map((point) =>
    civilDaylight(point, search.fromS, search.untilS + schedule.totalS + HOUR_S),
  );
  const total = legs.reduce((sum, leg) => sum + leg.lengthM, 0);
  const judged: StartJudgement[] = [];
  for (let startS = Math.ceil(search.fromS / HOUR_S) * HOUR_S; startS <= search.untilS; startS += HOUR_S) {
    if (startS + schedule.totalS >= lastHour + HOUR_S) break;
    const winds: LegWind[] = [];
    const visits = new Map<number, { hour: WindSample; daylight: boolean }>();
    let previousKey = -1;
    let previousLit = true;
    let along = 0;
    let windyS = 0;
    let fits = true;
    for (let i = 0; i < legs.length && fits; i++) {
      const leg = legs[i];
      const sample = source[legSample[i] ?? 0] ?? -1;
      const at = startS + (schedule.midS[i] ?? 0);
      const hourTime = Math.floor(at / HOUR_S) * HOUR_S;
      const hour = hourMaps[sample]?.get(hourTime);
      if (leg === undefined || hour === undefined) {
        fits = false;
        break;
      }
      const wind = { speedKmh: hour.speedKmh, directionDeg: hour.directionDeg };
      winds.push(wind);
      const tailwindKmh = legWindEffect(leg, wind).tailwindKmh;
      along += leg.lengthM * tailwindKmh;
      windyS += leg.lengthM / legSpeedMs(leg, search.powerW, tailwindKmh, search.params);
      // Consecutive legs mostly share a place and hour: the map is touched only when either changes.
      const key = sample * 1e6 + (hourTime - search.fromS) / HOUR_S;
      const lit = daylightSpanOf(daylight[sample] ?? [], at, at) !== null;
      if (key === previousKey && (lit || !previousLit)) continue;
      previousKey = key;
      previousLit = lit;
      const seen = visits.get(key);
      if (seen === undefined || (seen.daylight && !lit)) visits.set(key, { hour, daylight: lit });
    }
    if (!fits) continue;
    const conditions = [...visits.values()].map(({ hour, daylight: lit }) => ({
      daylight: lit,
      windGustsKmh: hour.gustsKmh,
      temperatureC: hour.temperatureC,
      precipitationMm: hour.precipitationMm,
      precipitationProbabilityPct: hour.precipitationProbabilityPct,
    }));
    const refusals = new Set(conditions.flatMap((c) => refusalsOf(c, search.includeDarkness)));
    const flags = new Set(conditions.flatMap((c) => flagsOf(c)));
    judged.push({
      startS,
      tailwindKmh: total > 0 ? along / total : 0,
      timeGainedS: schedule.totalS - windyS,
      stillAirS: schedule.totalS,
      refusals: (['dark', 'wet', 'gusty'] as const).filter((r) => refusals.has(r)),
      flags: FLAG_ORDER.filter((f) => flags.has(f)),
      winds,
      ...weatherExtremes(conditions),
    });
  }
  return { judged, schedule };
}

/** Chosen starts are at least this far apart: the next hour's start is nearly the same ride. */
export const START_SPACING_H = 2;

/**
 * Starts fastest first: by ride time in the forecast, to the whole second as
 * answers show it (still-air time less time gained, each rounded), the
 * earlier start on a tie. For one route in one direction that is the order
 * of time gained, the figure the rider feels. Not the mean tailwind: on a
 * loop that is about 0 in every wind, and a headwind costs more time than
 * the same tailwind gives back, so the mean can rank the slowest ride first.
 * Across the two directions of a loop the still-air times differ (a steep
 * climb and a long descent are not a long climb and a steep descent), so the
 * ride time, not the time gained alone, says which is faster.
 */
export function fastestFirst<
  T extends { readonly timeGainedS: number; readonly stillAirS: number; readonly startS: number },
>(a: T, b: T): number {
  const time = (j: T): number => Math.round(j.stillAirS) - Math.round(j.timeGainedS);
  return time(a) - time(b) || a.startS - b.startS;
}

/**
 * The best rideable starts fastest first ({@link fastestFirst}), at most
 * `count`, at least {@link START_SPACING_H} hours apart; or why there is
 * none. A best start can still lose time to the wind: it is then the one
 * that loses least, and its figures say so.
 */
export function bestStarts<T extends StartJudgement>(
  judged: readonly T[],
  count = 3,
): { readonly chosen: T[]; readonly status: StartStatus } {
  if (judged.length === 0) return { chosen: [], status: 'beyond_forecast' };
  const rideable = judged.filter((j) => j.refusals.length === 0);
  if (rideable.length === 0) {
    const lit = judged.filter((j) => !j.refusals.includes('dark'));
    if (lit.length === 0) return { chosen: [], status: 'dark' };
    if (lit.every((j) => j.refusals.includes('wet'))) return { chosen: [], status: 'wet' };
    if (lit.every((j) => j.refusals.includes('gusty'))) return { chosen: [], status: 'gusty' };
    return { chosen: [], status: 'wet_or_gusty' };
  }
  const ranked = [...rideable].sort(fastestFirst);
  const chosen: T[] = [];
  for (const start of ranked) {
    if (chosen.length >= count) break;
    if (chosen.every((c) => Math.abs(c.startS - start.startS) >= START_SPACING_H * HOUR_S))
      chosen.push(start);
  }
  return { chosen, status: 'found' };
}

/** The full figures for one start: the route wind, and the ride time in still air and in the forecast. */
export function reportStart(
  start: StartJudgement,
  legs: readonly RouteLeg[],
  powerW: number,
  params: PowerModelParams,
): StartReport {
  const wind = routeWind(legs, start.winds);
  return {
    ...start,
    wind,
    stillAirS: rideTimeS(
      legs,
      powerW,
      legs.map(() => 0),
      params,
    ),
    windyS: rideTimeS(
      legs,
      powerW,
      wind.legs.map((l) => l.tailwindKmh),
      params,
    ),
  };
}
