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
} from '../../core/tailwind-window.ts';
import type { WindHour } from '../../core/wind-hour.ts';
import { FORECAST_HOURS, type WindSeries } from '../forecast/types.ts';
import { hourSetWithin, type ForecastHourSet } from '../forecast/hour-set.ts';
import { derivation, derivedResults, REMEMBERED_SUBJECTS } from '../forecast/derived-results.ts';
import { packTimeline, unpackHour, unpackTimeline, type PackedTimeline } from './packed-timeline.ts';
import type { Segment } from './types.ts';
import { forecastPointOf, legsOf } from './segment-geometry.ts';
import { hourStart } from '../../core/time.ts';

/**
 * The hours judged, named: from the current UTC hour to {@link FORECAST_HOURS}
 * ahead. A series the forecast cache named gives a named set (its name and
 * the hour judged from), so what is derived from it is remembered
 * (`derived-results.ts`); the cache hands out hours from the current hour,
 * which are then the series' own array, not a copy.
 */
export function hourSetAhead(series: WindSeries, nowMs: number): ForecastHourSet {
  const from = hourStart(nowMs);
  const until = from + FORECAST_HOURS * HOUR_S;
  const { hours, hourSet } = series;
  // Every hour judged: the same hours, so the same name (what is derived depends on the hours alone).
  if (allWithin(hours, from, until)) return { id: hourSet ?? null, hours };
  const judged = hours.filter((hour) => hour.time >= from && hour.time < until);
  return { id: hourSet === undefined ? null : hourSetWithin(hourSet, from), hours: judged };
}

/** An indexed loop: `for…of` over the frozen array cost about 8 KB a call in `bench/mcp-allocation.ts`. */
function allWithin(hours: readonly WindHour[], from: number, until: number): boolean {
  // eslint-disable-next-line @typescript-eslint/prefer-for-of -- the iterator is the cost measured above
  for (let i = 0; i < hours.length; i++) {
    const time = hours[i]?.time ?? from;
    if (time < from || time >= until) return false;
  }
  return true;
}

/** The hours judged, as {@link hourSetAhead} gives them, without their name. */
export function hoursAhead(series: WindSeries, nowMs: number): readonly WindHour[] {
  return hourSetAhead(series, nowMs).hours;
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
  samples: readonly WindHour[] | null,
  options: WindOptions = {},
): SegmentWind | null {
  if (!samples || samples.length === 0) return null;
  const daylight = daylightFor(point, samples);
  const timeline = segmentTimeline(legs, samples, daylight);
  return { timeline, best: bestRideableWindow(timeline, daylight, options) };
}

/**
 * Segments' winds remembered (in `derived-results.ts`, with what the tools
 * derive from them): at most this many segments, each for the one hour set
 * it was last judged on (a segment has one forecast point, so one set per
 * hour). It covers the ten segments of 200 different places. A wind of 72
 * hours held about 22 KB of heap as 72 hour objects (a heap snapshot,
 * 2026-11-26), 46 MB at the cap, which V8 let the old generation grow to a
 * few times; at 512 the server peaked about 170 MB lower with 4,000 segments
 * in play but served about a quarter fewer calls (decision 0018). Its hours
 * are now packed, 7.5 KB per wind.
 */
export const REMEMBERED_WINDS = REMEMBERED_SUBJECTS;

/** A segment's wind without and with the hours between dusk and dawn: one derivation each. */
const WIND = derivation<SegmentWind | null>('segment wind');
const WIND_IN_DARKNESS = derivation<SegmentWind | null>('segment wind, darkness included');

/**
 * The wind's effect on the segment hour by hour and its best window; null when there are no hours.
 *
 * Remembered per segment for a named hour set (what {@link hourSetAhead}
 * gives for a cached forecast): the answer depends on nothing else, and
 * recomputing the sun and every hour of the same segments for each call was
 * the largest share of a `find_tailwind_segments` call under load. Hours
 * with no name are judged afresh. The remembered answer is shared by every
 * call in the hour, so it is frozen and holds its timeline packed (see
 * {@link rememberedWind}). `includeDarkness`, the one option, picks the
 * derivation: a new option in {@link WindOptions} must do the same.
 */
export function windOnSegment(
  segment: Segment,
  hourSet: ForecastHourSet | null,
  options: WindOptions = {},
): SegmentWind | null {
  if (hourSet?.id == null) return judged(segment, hourSet, options);
  return options.includeDarkness === true
    ? derivedResults.onHours(segment, hourSet.id, WIND_IN_DARKNESS, rememberedInDarkness, hourSet)
    : derivedResults.onHours(segment, hourSet.id, WIND, remembered, hourSet);
}

/** The wind on a segment computed afresh. */
function judged(segment: Segment, hourSet: ForecastHourSet | null, options: WindOptions): SegmentWind | null {
  return windOnLegs(legsOf(segment), forecastPointOf(segment), hourSet?.hours ?? null, options);
}

/** The winds to remember, without and with darkness hours (the derivation's one option). */
function remembered(segment: Segment, hourSet: ForecastHourSet): SegmentWind | null {
  const wind = judged(segment, hourSet, { includeDarkness: false });
  return wind && rememberedWind(wind);
}
function rememberedInDarkness(segment: Segment, hourSet: ForecastHourSet): SegmentWind | null {
  const wind = judged(segment, hourSet, { includeDarkness: true });
  return wind && rememberedWind(wind);
}

/** Where a remembered wind keeps its packed timeline: a property no copy or comparison sees. */
const PACKED = Symbol('packed timeline');

/**
 * A wind as it is remembered: frozen, its best window as computed and its
 * timeline packed (`packed-timeline.ts`), unpacked into new frozen hour
 * objects each time it is read. Most answers read only the best window;
 * `get_segment` and the Pro timeline read the hours.
 */
function rememberedWind(wind: SegmentWind): SegmentWind {
  const packed = packTimeline(wind.timeline);
  const kept = {
    // An own, enumerable getter: the wind compares equal to one computed afresh.
    get timeline() {
      return unpackTimeline(packed);
    },
    best: frozenDeep(wind.best),
  };
  Object.defineProperty(kept, PACKED, { value: packed, enumerable: false });
  return Object.freeze(kept);
}

/** The wind's first hour (the current one), without unpacking the others of a remembered wind. */
export function firstHourOf(wind: SegmentWind): SegmentHour | undefined {
  const packed = (wind as { readonly [PACKED]?: PackedTimeline })[PACKED];
  return packed ? unpackHour(packed, 0) : wind.timeline[0];
}

/** Freezes plain data and everything in it (the sun's daylight spans and flags included): it is shared. */
function frozenDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) frozenDeep(child);
  }
  return value;
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
  return windOnSegment(segment, hourSetAhead(series, nowMs))?.best.window ?? null;
}
