import type { LatLon } from './bearing.ts';
import { civilDaylight, daylightSpanOf, type DaylightSpan } from './daylight.ts';
import { WIND_HEIGHT_FACTOR } from './power-model.ts';
import type { WindHour } from './wind-hour.ts';
import {
  flagsOf,
  refusalsOf,
  weatherExtremes,
  type Refusal,
  type RideFlag,
  type WeatherExtremes,
} from './rideable.ts';
import { roundHalfAway } from './round.ts';
import { segmentWind, type Leg } from './segment-wind.ts';
import { HOUR_S } from './time.ts';
import { CROSSWIND_THRESHOLD_KMH, SPEED_DECIMALS, type WindEffect } from './wind.ts';

/** Seconds in one forecast step (held in `time.ts`, which every clock reads without this module's maths). */
export { HOUR_S };

/**
 * A forecast hour with the wind's effect on a segment, all rounded to
 * 0.1 km/h. Wind figures are at the forecast's 10 m unless named
 * `…RiderHeight` (the same figure times {@link WIND_HEIGHT_FACTOR}).
 */
export interface SegmentHour {
  readonly time: number;
  readonly tailwindKmh: number;
  readonly crosswindKmh: number;
  readonly effect: WindEffect;
  readonly windSpeedKmh: number;
  readonly windDirectionDeg: number;
  readonly windGustsKmh: number | null;
  readonly tailwindKmhRiderHeight: number;
  readonly crosswindKmhRiderHeight: number;
  readonly windSpeedKmhRiderHeight: number;
  readonly temperatureC: number | null;
  readonly precipitationMm: number | null;
  readonly precipitationProbabilityPct: number | null;
  /** The whole hour lies between civil dawn and civil dusk at the segment. */
  readonly daylight: boolean;
}

/** The best run of tailwind hours; `end` is the end of its last hour. */
export interface TailwindWindow {
  readonly start: number;
  readonly end: number;
  readonly hours: number;
  readonly peak: SegmentHour;
  readonly meanTailwindKmh: number;
  readonly meanTailwindKmhRiderHeight: number;
}

/** A window a rider would ride, with what they decide on. */
export interface RideableWindow extends TailwindWindow, WeatherExtremes {
  /** The civil daylight around the window; null when it runs through darkness (include darkness). */
  readonly daylight: DaylightSpan | null;
  readonly flags: readonly RideFlag[];
}

/**
 * Why there is no window: no tailwind hour at all, or every tailwind hour
 * refused — all in the dark, or (of those in daylight) all wet, all gusty,
 * or each one wet or gusty.
 */
export type WindowStatus = 'found' | 'no_tailwind' | 'dark' | 'wet' | 'gusty' | 'wet_or_gusty';

export interface WindowSearch {
  readonly window: RideableWindow | null;
  readonly status: WindowStatus;
}

/** Share of the peak tailwind an hour needs to stay in the window. */
export const WINDOW_SHARE_OF_PEAK = 0.5;

/** The effect of every hour on the segment, for the hour-by-hour timeline. */
export function segmentTimeline(
  legs: readonly Leg[],
  samples: readonly WindHour[],
  daylight: readonly DaylightSpan[],
): readonly SegmentHour[] {
  return samples.map((sample) => segmentHour(legs, sample, daylight));
}

/** The civil daylight over a run of samples at a point (one sun computation per segment and call). */
export function daylightFor(point: LatLon, samples: readonly WindHour[]): readonly DaylightSpan[] {
  const first = samples[0];
  const last = samples.at(-1);
  return first && last ? civilDaylight(point, first.time, last.time + HOUR_S) : [];
}

/** A 10 m figure at rider height: the power model's log-profile factor, rounded as shown. */
export const atRiderHeight = (kmh: number): number => roundHalfAway(kmh * WIND_HEIGHT_FACTOR, SPEED_DECIMALS);

function segmentHour(legs: readonly Leg[], sample: WindHour, daylight: readonly DaylightSpan[]): SegmentHour {
  const wind = segmentWind(legs, sample.speedKmh, sample.directionDeg);
  const windSpeedKmh = roundHalfAway(sample.speedKmh, SPEED_DECIMALS);
  return {
    time: sample.time,
    tailwindKmh: wind.signedKmh,
    crosswindKmh: wind.crosswindKmh,
    effect: wind.effect,
    windSpeedKmh,
    windDirectionDeg: Math.round(sample.directionDeg) % 360,
    windGustsKmh: sample.gustsKmh === null ? null : roundHalfAway(sample.gustsKmh, SPEED_DECIMALS),
    tailwindKmhRiderHeight: atRiderHeight(wind.signedKmh),
    crosswindKmhRiderHeight: atRiderHeight(wind.crosswindKmh),
    windSpeedKmhRiderHeight: atRiderHeight(windSpeedKmh),
    temperatureC: sample.temperatureC,
    precipitationMm: sample.precipitationMm,
    precipitationProbabilityPct: sample.precipitationProbabilityPct,
    daylight: daylightSpanOf(daylight, sample.time, sample.time + HOUR_S) !== null,
  };
}

/**
 * The best tailwind window in a segment's timeline, or null when no hour is a
 * tailwind. Works on the rounded hourly figures a caller sees, so the window
 * never disagrees with the timeline.
 *
 * The peak is the hour with the strongest tailwind (the earliest on a tie).
 * The window is the longest run of consecutive hours around the peak in which
 * every hour is still a tailwind (at least 1 km/h, the REST threshold) and at
 * least half the peak, so a rider can start any time inside it. A gap in the
 * forecast ends the run. The mean is over the run's hours. Only hours for
 * which `allowed` holds are considered: a refused hour (dark, wet, gusty)
 * is never the peak and ends a run like a gap.
 */
export function bestTailwindWindow(
  timeline: readonly SegmentHour[],
  allowed: (hour: SegmentHour) => boolean = () => true,
): TailwindWindow | null {
  let peakIndex = -1;
  timeline.forEach((hour, i) => {
    if (!allowed(hour)) return;
    if (peakIndex < 0 || hour.tailwindKmh > (timeline[peakIndex]?.tailwindKmh ?? -Infinity)) peakIndex = i;
  });
  const peak = timeline[peakIndex];
  if (!peak || peak.effect !== 'tailwind') return null;

  const floor = Math.max(CROSSWIND_THRESHOLD_KMH, WINDOW_SHARE_OF_PEAK * peak.tailwindKmh);
  const inWindow = (i: number): boolean => {
    const hour = timeline[i];
    return hour !== undefined && allowed(hour) && hour.tailwindKmh >= floor;
  };
  const joined = (i: number, j: number): boolean =>
    (timeline[j]?.time ?? NaN) - (timeline[i]?.time ?? NaN) === HOUR_S;
  let first = peakIndex;
  while (inWindow(first - 1) && joined(first - 1, first)) first--;
  let last = peakIndex;
  while (inWindow(last + 1) && joined(last, last + 1)) last++;

  const run = timeline.slice(first, last + 1);
  const mean = run.reduce((sum, hour) => sum + hour.tailwindKmh, 0) / run.length;
  return {
    start: run[0]?.time ?? peak.time,
    end: (run.at(-1)?.time ?? peak.time) + HOUR_S,
    hours: run.length,
    peak,
    meanTailwindKmh: roundHalfAway(mean, SPEED_DECIMALS),
    meanTailwindKmhRiderHeight: atRiderHeight(roundHalfAway(mean, SPEED_DECIMALS)),
  };
}

/**
 * The best window a rider would ride (see rideable.ts): the best tailwind
 * window over the hours not refused, with the daylight around it, the worst
 * weather in it and flags for what is marginal; or, when no hour qualifies,
 * the reason. `includeDarkness` is for riders with lights.
 */
export function bestRideableWindow(
  timeline: readonly SegmentHour[],
  daylight: readonly DaylightSpan[],
  options: { readonly includeDarkness?: boolean } = {},
): WindowSearch {
  const includeDarkness = options.includeDarkness ?? false;
  const refusals = new Map(timeline.map((hour) => [hour, refusalsOf(hour, includeDarkness)]));
  const window = bestTailwindWindow(timeline, (hour) => refusals.get(hour)?.length === 0);
  if (window) return { window: decorate(window, timeline, daylight), status: 'found' };
  const tailwind = timeline.filter((hour) => hour.effect === 'tailwind');
  return { window: null, status: whyNone(tailwind.map((hour) => refusals.get(hour) ?? [])) };
}

function whyNone(refused: readonly (readonly Refusal[])[]): WindowStatus {
  if (refused.length === 0) return 'no_tailwind';
  const lit = refused.filter((reasons) => !reasons.includes('dark'));
  if (lit.length === 0) return 'dark';
  if (lit.every((reasons) => reasons.includes('wet'))) return 'wet';
  if (lit.every((reasons) => reasons.includes('gusty'))) return 'gusty';
  return 'wet_or_gusty';
}

function decorate(
  window: TailwindWindow,
  timeline: readonly SegmentHour[],
  daylight: readonly DaylightSpan[],
): RideableWindow {
  const hours = timeline.filter((hour) => hour.time >= window.start && hour.time < window.end);
  const flags = new Set(hours.flatMap((hour) => flagsOf(hour)));
  return {
    ...window,
    daylight: daylightSpanOf(daylight, window.start, window.end),
    flags: (['dark', 'wet', 'gusty', 'cold', 'freezing', 'hot'] as const).filter((f) => flags.has(f)),
    ...weatherExtremes(hours),
  };
}
