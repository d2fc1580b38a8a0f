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
import { keyRun, runKeyOf } from '../forecast/run-key.ts';
import { packTimeline, unpackHour, unpackTimeline, type PackedTimeline } from './packed-timeline.ts';
import type { Segment } from './types.ts';
import { forecastPointOf, legsOf } from './segment-geometry.ts';
import { hourStart } from '../../core/time.ts';
import { LRUCache } from 'lru-cache';

/** `hoursAhead`'s answer for a frozen run of hours, per UTC hour. */
const aheadOf = new WeakMap<
  readonly WindHour[],
  { readonly from: number; readonly hours: readonly WindHour[] }
>();

/** The key of `hoursAhead`'s answer for a keyed run (`run-key.ts`), per UTC hour. */
const aheadKeys = new WeakMap<object, { readonly from: number; readonly key: object }>();

/**
 * The hours judged: from the current UTC hour to {@link FORECAST_HOURS} ahead.
 * For a frozen run (the forecast cache hands out one per cell and hour) the
 * answer is frozen too and the same array every call in the hour, and when
 * the run has a key so has the answer, the same every call in the hour, so
 * {@link windOnSegment} can remember what it computed from it.
 */
export function hoursAhead(series: WindSeries, nowMs: number): readonly WindHour[] {
  const from = hourStart(nowMs);
  const frozen = Object.isFrozen(series.hours);
  const known = frozen ? aheadOf.get(series.hours) : undefined;
  if (known?.from === from) return known.hours;
  const until = from + FORECAST_HOURS * HOUR_S;
  const hours = series.hours.filter((hour) => hour.time >= from && hour.time < until);
  if (!frozen) return hours;
  Object.freeze(hours);
  aheadOf.set(series.hours, { from, hours });
  const runKey = runKeyOf(series.hours);
  if (runKey) {
    let ahead = aheadKeys.get(runKey);
    if (ahead?.from !== from) {
      ahead = { from, key: {} };
      aheadKeys.set(runKey, ahead);
    }
    keyRun(hours, ahead.key);
  }
  return hours;
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
 * Segments' winds remembered: at most this many segments, each for the one
 * run of samples it was last judged on (a segment has one forecast point, so
 * one run per hour). It covers the ten segments of 200 different places. A
 * wind of 72 hours held about 22 KB of heap as 72 hour objects (a heap
 * snapshot, 2026-11-26), 46 MB at the cap, which V8 let the old generation
 * grow to a few times; at 512 the server peaked about 170 MB lower with 4,000
 * segments in play but served about a quarter fewer calls (decision 0018).
 * Its hours are now packed, 7.5 KB per wind.
 */
export const REMEMBERED_WINDS = 2048;

interface Remembered {
  /** The run of samples judged on: its key (`run-key.ts`), or the run itself when it has none. */
  readonly run: object;
  /** Without and with darkness hours; undefined until asked. */
  readonly winds: [SegmentWind | null | undefined, SegmentWind | null | undefined];
}

const remembered = new LRUCache<Segment, Remembered>({ max: REMEMBERED_WINDS });

/**
 * The wind's effect on the segment hour by hour and its best window; null when there are no hours.
 *
 * Remembered per segment for a frozen run of samples (what {@link hoursAhead}
 * gives for a cached forecast): the answer depends on nothing else, and
 * recomputing the sun and every hour of the same segments for each call was
 * the largest share of a `find_tailwind_segments` call under load. A frozen
 * run is taken as unchanging; any other run is computed afresh. The
 * remembered answer is frozen, as it is shared by every call in the hour,
 * and holds its timeline packed (see {@link rememberedWind}).
 * The key is the segment object, the run's key and `includeDarkness`, the one
 * option: a new option in {@link WindOptions} must join it.
 */
export function windOnSegment(
  segment: Segment,
  samples: readonly WindHour[] | null,
  options: WindOptions = {},
): SegmentWind | null {
  const compute = () => windOnLegs(legsOf(segment), forecastPointOf(segment), samples, options);
  if (!samples || !Object.isFrozen(samples)) return compute();
  const run = runKeyOf(samples) ?? samples;
  let entry = remembered.get(segment);
  if (entry?.run !== run) {
    entry = { run, winds: [undefined, undefined] };
    remembered.set(segment, entry);
  }
  const slot = options.includeDarkness === true ? 1 : 0;
  const known = entry.winds[slot];
  if (known !== undefined) return known;
  const wind = compute();
  const kept = wind && rememberedWind(wind);
  entry.winds[slot] = kept;
  return kept;
}

/**
 * A wind as it is remembered: frozen, its best window as computed and its
 * timeline packed (`packed-timeline.ts`), unpacked into new frozen hour
 * objects each time it is read. Most answers read only the best window;
 * `get_segment` and the Pro timeline read the hours.
 */
function rememberedWind(wind: SegmentWind): SegmentWind {
  const packed = packTimeline(wind.timeline);
  const kept = Object.freeze({
    // An own, enumerable getter: the wind compares equal to one computed afresh.
    get timeline() {
      return unpackTimeline(packed);
    },
    best: frozenDeep(wind.best),
  });
  packedOf.set(kept, packed);
  return kept;
}

/** The packed timelines of remembered winds, for {@link firstHourOf}. */
const packedOf = new WeakMap<SegmentWind, PackedTimeline>();

/** The wind's first hour (the current one), without unpacking the others of a remembered wind. */
export function firstHourOf(wind: SegmentWind): SegmentHour | undefined {
  const packed = packedOf.get(wind);
  return packed ? unpackHour(packed, 0) : wind.timeline[0];
}

/** Freezes plain data and everything in it (the sun's daylight spans and flags included). */
function frozenDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
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
  return windOnSegment(segment, hoursAhead(series, nowMs))?.best.window ?? null;
}
