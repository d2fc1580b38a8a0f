/**
 * Which forecast hours a segment is judged on and its best tailwind window
 * over them: one computation for the tools (`forecastForSegments`,
 * `segmentWindReport`) and the alert job, so an alert records the window
 * `get_my_watchlist` shows at the same hour. Context-free: the alert job has
 * no tool call around it.
 */
import type { LatLon } from '../../core/bearing.ts';
import type { Leg } from '../../core/segment-wind.ts';
import {
  bestRideableWindow,
  daylightFor,
  HOUR_S,
  segmentTimeline,
  type RideableWindow,
  type SegmentHour,
  type WindowSearch,
  type WindSample,
} from '../../core/tailwind-window.ts';
import { FORECAST_HOURS, type WindHour, type WindSeries } from '../forecast/types.ts';
import type { Segment } from './types.ts';
import { forecastPointOf, legsOf } from './segment-geometry.ts';
import { hourStart } from '../../core/time.ts';

/** The hours judged: from the current UTC hour to {@link FORECAST_HOURS} ahead. */
export function hoursAhead(series: WindSeries, nowMs: number): readonly WindHour[] {
  const from = hourStart(nowMs);
  const until = from + FORECAST_HOURS * HOUR_S;
  return series.hours.filter((hour) => hour.time >= from && hour.time < until);
}

export interface SegmentWind {
  readonly timeline: readonly SegmentHour[];
  /** The best rideable window, or why there is none. */
  readonly best: WindowSearch;
}

export interface WindOptions {
  /** Offer hours between civil dusk and dawn too (a rider with lights); default false. */
  readonly includeDarkness?: boolean;
}

/**
 * The wind on a route (its legs) at `point` hour by hour and its best
 * rideable window, with daylight reckoned at `point`; null when there are
 * no hours. Used for catalog segments and for the compass headings.
 */
export function windOnLegs(
  legs: readonly Leg[],
  point: LatLon,
  samples: readonly WindSample[] | null,
  options: WindOptions = {},
): SegmentWind | null {
  if (!samples || samples.length === 0) return null;
  const daylight = daylightFor(point, samples);
  const timeline = segmentTimeline(legs, samples, daylight);
  return { timeline, best: bestRideableWindow(timeline, daylight, options) };
}

/** The wind's effect on the segment hour by hour and its best window; null when there are no hours. */
export function windOnSegment(
  segment: Segment,
  samples: readonly WindSample[] | null,
  options: WindOptions = {},
): SegmentWind | null {
  return windOnLegs(legsOf(segment), forecastPointOf(segment), samples, options);
}

/**
 * The segment's best rideable window (daylight, dry, gusts under the limit)
 * in the hours ahead of `nowMs`, or null when there is none: what the alert
 * job alerts on.
 */
export function segmentBestWindow(
  segment: Segment,
  series: WindSeries,
  nowMs: number,
): RideableWindow | null {
  return windOnSegment(segment, hoursAhead(series, nowMs))?.best.window ?? null;
}
