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
import { HOUR_S } from '../tailwind-window.ts';
import type { WindHour } from '../wind-hour.ts';
import type { RouteLeg } from './route-geometry.ts';
import { legSpeedMs, rideTimeS, stillAirSchedule } from './route-ride.ts';
import { legWindEffect, routeWind, type LegWind, type RouteWind } from './route-wind.ts';

/** What a start needs from the forecast: per sample, its hours (null = no usable data there). */
export interface StartSearch {
  readonly legs: readonly RouteLeg[];
  /** For each leg, the sample it is ridden in (see `routeSamples`). */
  readonly legSample: readonly number[];
  readonly samplePoints: readonly LatLon[];
  readonly forecast: readonly (readonly WindHour[] | null)[];
  readonly powerW: number;
  readonly params: PowerModelParams;
  /** First and last start considered, unix seconds; starts fall on whole local hours in between. */
  readonly fromS: number;
  readonly untilS: number;
  readonly includeDarkness: boolean;
  /**
   * Seconds past each UTC hour at which the rider's local hours begin
   * ({@link localHourPhaseS}): 0 where the zone is whole hours from UTC (the
   * default), 1800 in India or Newfoundland, 900 in Nepal or on the Chatham
   * Islands. Starts fall on those instants, and the forecast is interpolated
   * to them ({@link interpolateHours}).
   */
  readonly hourPhaseS?: number;
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

/**
 * Seconds past the UTC hour at which local hours begin, for a zone
 * `offsetMinutes` ahead of UTC: India (+5:30) starts its hours at :30 UTC,
 * Nepal (+5:45) at :15, Newfoundland (−3:30) at :30, Chatham (+12:45) at :15.
 */
export function localHourPhaseS(offsetMinutes: number): number {
  return (((-offsetMinutes * 60) % HOUR_S) + HOUR_S) % HOUR_S;
}

/** `a` to `b` by the shorter way round the compass, a share `t` of the way. */
function directionBetween(a: number, b: number, t: number): number {
  const turn = ((((b - a) % 360) + 540) % 360) - 180;
  return (((a + turn * t) % 360) + 360) % 360;
}

const between = (a: number | null, b: number | null, t: number): number | null =>
  a === null || b === null ? null : a + (b - a) * t;

const worse = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * The forecast's hours moved `phaseS` seconds later, each interpolated
 * between the two UTC hours around it: the hours of a rider whose zone is
 * not a whole number of hours from UTC, so starts can fall on whole local
 * hours (a start at 06:00 in India is 00:30 UTC, between two forecast hours).
 * Wind speed, gusts and temperature are linear in time; the direction turns
 * the shorter way round (averaging vectors would invent a calm between two
 * opposite winds); rain and its probability are the larger of the two hours,
 * so a shower is never interpolated away. An hour without its successor is
 * dropped: nothing to interpolate towards.
 */
export function interpolateHours(hours: readonly WindHour[], phaseS: number): WindHour[] {
  if (phaseS === 0) return [...hours];
  const t = phaseS / HOUR_S;
  const byTime = new Map(hours.map((h) => [h.time, h]));
  return hours.flatMap((a) => {
    const b = byTime.get(a.time + HOUR_S);
    if (b === undefined) return [];
    return [
      {
        time: a.time + phaseS,
        speedKmh: a.speedKmh + (b.speedKmh - a.speedKmh) * t,
        directionDeg: directionBetween(a.directionDeg, b.directionDeg, t),
        gustsKmh: between(a.gustsKmh, b.gustsKmh, t),
        temperatureC: between(a.temperatureC, b.temperatureC, t),
        precipitationMm: worse(a.precipitationMm, b.precipitationMm),
        precipitationProbabilityPct: worse(a.precipitationProbabilityPct, b.precipitationProbabilityPct),
      },
    ];
  });
}

/** A chosen start with everything the answer tells about it. */
export interface StartReport extends StartJudgement {
  readonly wind: RouteWind;
  /** Ride time at the rider's power in still air and in this forecast, seconds. */
  readonly stillAirS: number;
  readonly windyS: number;
}

export type StartStatus = 'found' | 'dark' | 'wet' | 'gusty' | 'wet_or_gusty' | 'beyond_forecast';

/**
 * Why no start is offered, where the weather decided it: the same words on the route page and in
 * `get_route_wind`. Darkness and the forecast's end each reader says in its own terms (the page's
 * 3 days, the tool's `include_darkness`).
 */
export const NO_START_WEATHER_WORDS = {
  wet: 'every daylight start meets too much rain on the way',
  gusty: 'every daylight start meets gusts over the safety limit',
  wet_or_gusty: 'every daylight start meets rain or gusts over the limit',
} as const satisfies Partial<Record<StartStatus, string>>;

const FLAG_ORDER: readonly RideFlag[] = ['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot'];

/**
 * Judges every start on a whole local hour in the range whose ride fits in
 * the forecast (in a zone a fraction of an hour from UTC, in the forecast
 * interpolated to those hours): each leg is ridden in the forecast hour of its sample at the
 * time the rider reaches its middle (still-air pace), and each (place,
 * hour) visited is judged by the rideable rules of `rideable.ts` — daylight
 * at that moment unless darkness is allowed, rain and gusts — so a start
 * whose ride runs into dusk or a shower is refused, not merely flagged.
 */
export function judgeStarts(search: StartSearch): { judged: StartJudgement[]; schedule: { totalS: number } } {
  const { legs, legSample, samplePoints } = search;
  const phaseS = search.hourPhaseS ?? 0;
  const forecast = search.forecast.map((hours) => hours && interpolateHours(hours, phaseS));
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
  const firstS = Math.ceil((search.fromS - phaseS) / HOUR_S) * HOUR_S + phaseS;
  for (let startS = firstS; startS <= search.untilS; startS += HOUR_S) {
    if (startS + schedule.totalS >= lastHour + HOUR_S) break;
    const winds: LegWind[] = [];
    const visits = new Map<number, { hour: WindHour; daylight: boolean }>();
    let previousKey = -1;
    let previousLit = true;
    let along = 0;
    let windyS = 0;
    let fits = true;
    for (let i = 0; i < legs.length && fits; i++) {
      const leg = legs[i];
      const sample = source[legSample[i] ?? 0] ?? -1;
      const at = startS + (schedule.midS[i] ?? 0);
      const hourTime = Math.floor((at - phaseS) / HOUR_S) * HOUR_S + phaseS;
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
