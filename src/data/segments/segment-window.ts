/**
 * Which forecast hours a segment is judged on and its best tailwind window
 * over them: one computation for the tools (`forecastForSegments`,
 * `segmentWindReport`) and the alert job, so an alert records the window
 * `get_my_watchlist` shows at the same hour. Context-free: the alert job has
 * no tool call around it.
 */
import {
  bestTailwindWindow,
  HOUR_S,
  segmentTimeline,
  type SegmentHour,
  type TailwindWindow,
  type WindSample,
} from '../../core/tailwind-window.ts';
import { FORECAST_HOURS, type WindHour, type WindSeries } from '../forecast/types.ts';
import type { Segment } from './types.ts';
import { legsOf } from './segment-geometry.ts';
import { hourStart } from '../../core/time.ts';

/** The hours judged: from the current UTC hour to {@link FORECAST_HOURS} ahead. */
export function hoursAhead(series: WindSeries, nowMs: number): readonly WindHour[] {
  const from = hourStart(nowMs);
  const until = from + FORECAST_HOURS * HOUR_S;
  return series.hours.filter((hour) => hour.time >= from && hour.time < until);
}

export interface SegmentWind {
  readonly timeline: readonly SegmentHour[];
  /** Null when no hour is a tailwind. */
  readonly best: TailwindWindow | null;
}

/** The wind's effect on the segment hour by hour and its best window; null when there are no hours. */
export function windOnSegment(segment: Segment, samples: readonly WindSample[] | null): SegmentWind | null {
  if (!samples || samples.length === 0) return null;
  const timeline = segmentTimeline(legsOf(segment), samples);
  return { timeline, best: bestTailwindWindow(timeline) };
}

/** The segment's best window in the hours ahead of `nowMs`, or null when none of them is a tailwind. */
export function segmentBestWindow(
  segment: Segment,
  series: WindSeries,
  nowMs: number,
): TailwindWindow | null {
  return windOnSegment(segment, hoursAhead(series, nowMs))?.best ?? null;
}
