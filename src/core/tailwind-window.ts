import { roundHalfAway } from './round.ts';
import { segmentWind, type Leg } from './segment-wind.ts';
import { CROSSWIND_THRESHOLD_KMH, SPEED_DECIMALS, type WindEffect } from './wind.ts';

/** Seconds in one forecast step. */
export const HOUR_S = 3600;

/** One forecast hour as the window maths needs it (structurally a forecast `WindHour`). */
export interface WindSample {
  /** Unix seconds at the start of the hour. */
  readonly time: number;
  readonly speedKmh: number;
  readonly directionDeg: number;
  readonly gustsKmh: number | null;
}

/** A forecast hour with the wind's effect on a segment, all rounded to 0.1 km/h. */
export interface SegmentHour {
  readonly time: number;
  readonly tailwindKmh: number;
  readonly crosswindKmh: number;
  readonly effect: WindEffect;
  readonly windSpeedKmh: number;
  readonly windDirectionDeg: number;
  readonly windGustsKmh: number | null;
}

/** The best run of tailwind hours; `end` is the end of its last hour. */
export interface TailwindWindow {
  readonly start: number;
  readonly end: number;
  readonly hours: number;
  readonly peak: SegmentHour;
  readonly meanTailwindKmh: number;
}

/** Share of the peak tailwind an hour needs to stay in the window. */
export const WINDOW_SHARE_OF_PEAK = 0.5;

/** The effect of every hour on the segment, for the hour-by-hour timeline. */
export function segmentTimeline(
  legs: readonly Leg[],
  samples: readonly WindSample[],
): readonly SegmentHour[] {
  return samples.map((sample) => segmentHour(legs, sample));
}

function segmentHour(legs: readonly Leg[], sample: WindSample): SegmentHour {
  const wind = segmentWind(legs, sample.speedKmh, sample.directionDeg);
  return {
    time: sample.time,
    tailwindKmh: wind.signedKmh,
    crosswindKmh: wind.crosswindKmh,
    effect: wind.effect,
    windSpeedKmh: roundHalfAway(sample.speedKmh, SPEED_DECIMALS),
    windDirectionDeg: Math.round(sample.directionDeg) % 360,
    windGustsKmh: sample.gustsKmh === null ? null : roundHalfAway(sample.gustsKmh, SPEED_DECIMALS),
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
 * forecast ends the run. The mean is over the run's hours.
 */
export function bestTailwindWindow(timeline: readonly SegmentHour[]): TailwindWindow | null {
  let peakIndex = -1;
  timeline.forEach((hour, i) => {
    if (peakIndex < 0 || hour.tailwindKmh > (timeline[peakIndex]?.tailwindKmh ?? -Infinity)) peakIndex = i;
  });
  const peak = timeline[peakIndex];
  if (!peak || peak.effect !== 'tailwind') return null;

  const floor = Math.max(CROSSWIND_THRESHOLD_KMH, WINDOW_SHARE_OF_PEAK * peak.tailwindKmh);
  const inWindow = (i: number): boolean => (timeline[i]?.tailwindKmh ?? -Infinity) >= floor;
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
  };
}
