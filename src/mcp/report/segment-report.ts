/**
 * A segment as the tools report it: its catalog entry (the facts a list
 * gives, and all of them), its wind over the forecast and its best window,
 * in full and in the brief form a list shows.
 */
import type { RideableWindow, SegmentHour } from '../../core/tailwind-window.ts';
import type { ForecastHourSet } from '../../data/forecast/hour-set.ts';
import { derivation, derivedResults } from '../../data/forecast/derived-results.ts';
import { bearingOf, startOf, toPoint } from '../../data/segments/segment-geometry.ts';
import type { Segment } from '../../data/segments/types.ts';
import type { z } from 'zod';
import type { SegmentHourSchema, TailwindWindowSchema, WindowStatusSchema } from '../schemas/common.ts';
import type { BriefWindowSchema, FoundSegmentSchema } from '../schemas/find.ts';
import type { SegmentFactsSchema } from '../schemas/segment.ts';
import { localIso } from '../../core/local-time.ts';
import { isoTime } from '../../core/time.ts';
import {
  firstHourOf,
  windOnSegment,
  type SegmentWind,
  type WindOptions,
} from '../../data/segments/segment-window.ts';
import { segmentTimeZone } from '../../data/time-zone/zone-at.ts';

type HourOut = z.infer<typeof SegmentHourSchema>;
type WindowOut = z.infer<typeof TailwindWindowSchema>;
type BriefWindowOut = z.infer<typeof BriefWindowSchema>;
type ListedFacts = Pick<
  z.infer<typeof FoundSegmentSchema>,
  'id' | 'name' | 'country_code' | 'distance_m' | 'average_grade_pct' | 'elevation_gain_m' | 'popularity_rank'
>;

/** The facts a list of segments gives (`FoundSegmentSchema`): all but the geometry, which get_segment has. */
export function listedFacts(segment: Segment): ListedFacts {
  return {
    id: segment.id,
    name: segment.name,
    country_code: segment.countryCode,
    distance_m: segment.distanceM,
    average_grade_pct: segment.averageGradePct,
    elevation_gain_m: segment.elevationGainM,
    popularity_rank: segment.popularityRank,
  };
}

/** The catalog entry in the snake_case shape every tool answers with. */
export function segmentFacts(segment: Segment): z.infer<typeof SegmentFactsSchema> {
  return { ...listedFacts(segment), start: toPoint(startOf(segment)), bearing_deg: bearingOf(segment) };
}

export interface SegmentWindReport {
  /** Every hour in output shape, formatted only when asked for (`get_segment`, the Pro timeline). */
  timeline(): readonly HourOut[];
  /** The first (current) hour alone, or null: `get_segment`'s wind now, without formatting the rest. */
  windNow(): HourOut | null;
  readonly bestWindow: WindowOut | null;
  readonly windowStatus: z.infer<typeof WindowStatusSchema>;
}

export function hourOut(hour: SegmentHour): HourOut {
  return {
    time: isoTime(hour.time),
    tailwind_kmh: hour.tailwindKmh,
    tailwind_kmh_rider_height: hour.tailwindKmhRiderHeight,
    crosswind_kmh: hour.crosswindKmh,
    effect: hour.effect,
    wind_speed_kmh: hour.windSpeedKmh,
    wind_direction_deg: hour.windDirectionDeg,
    wind_gusts_kmh: hour.windGustsKmh,
    temperature_c: hour.temperatureC,
    precipitation_mm: hour.precipitationMm,
    precipitation_probability_pct: hour.precipitationProbabilityPct,
    daylight: hour.daylight,
  };
}

/** The wind of a window's peak hour: see `PeakSchema`. */
function peakOut(hour: SegmentHour, timeZone: string): WindowOut['peak'] {
  return {
    time: isoTime(hour.time),
    time_local: localIso(hour.time, timeZone),
    tailwind_kmh: hour.tailwindKmh,
    tailwind_kmh_rider_height: hour.tailwindKmhRiderHeight,
    crosswind_kmh: hour.crosswindKmh,
    wind_speed_kmh: hour.windSpeedKmh,
    wind_direction_deg: hour.windDirectionDeg,
  };
}

const isoOrNull = (time: number, known: boolean): string | null => (known ? isoTime(time) : null);

/** A window in output shape; `timeZone` is the place's, for the local forms of its times. */
export function windowOut(window: RideableWindow, timeZone: string): WindowOut {
  const light = window.daylight;
  return {
    start: isoTime(window.start),
    end: isoTime(window.end),
    time_zone: timeZone,
    start_local: localIso(window.start, timeZone),
    end_local: localIso(window.end, timeZone),
    peak: peakOut(window.peak, timeZone),
    mean_tailwind_kmh: window.meanTailwindKmh,
    mean_tailwind_kmh_rider_height: window.meanTailwindKmhRiderHeight,
    daylight: light && {
      civil_dawn: isoOrNull(Math.round(light.start), light.startIsDawn),
      civil_dusk: isoOrNull(Math.round(light.end), light.endIsDusk),
    },
    weather: {
      max_precipitation_mm: window.maxPrecipitationMm,
      max_precipitation_probability_pct: window.maxPrecipitationProbabilityPct,
      min_temperature_c: window.minTemperatureC,
      max_temperature_c: window.maxTemperatureC,
      max_gusts_kmh: window.maxGustsKmh,
    },
    flags: [...window.flags],
  };
}

/** A remembered wind's report: remembered with the wind (see {@link segmentWindReport}). */
const REPORT = derivation<SegmentWindReport>('wind report');

/** A computed wind (segment or heading) in the tools' output shape, shaped afresh. */
export function windReport(wind: SegmentWind | null, timeZone: string): SegmentWindReport {
  return wind ? shapedReport(wind, timeZone) : NO_FORECAST;
}

const NO_FORECAST: SegmentWindReport = Object.freeze({
  timeline: () => [],
  windNow: () => null,
  bestWindow: null,
  windowStatus: 'no_forecast',
});

function shapedReport(wind: SegmentWind, timeZone: string): SegmentWindReport {
  const window = wind.best.window;
  return Object.freeze({
    // Read when asked: a remembered wind unpacks its hours only then.
    timeline: () => wind.timeline.map(hourOut),
    windNow: () => {
      const first = firstHourOf(wind);
      return first ? hourOut(first) : null;
    },
    bestWindow: window && frozenWindow(windowOut(window, timeZone)),
    windowStatus: wind.best.status,
  });
}

/** A report to remember: its window is held too, so its brief form and lines are remembered with it. */
function rememberedReport(wind: SegmentWind, timeZone: string): SegmentWindReport {
  const report = shapedReport(wind, timeZone);
  if (report.bestWindow) derivedResults.hold(report.bestWindow);
  return report;
}

/** A window frozen: it may be shared by every answer in the hour. */
function frozenWindow(window: WindowOut): WindowOut {
  Object.freeze(window.peak);
  Object.freeze(window.daylight);
  Object.freeze(window.weather);
  Object.freeze(window.flags);
  return Object.freeze(window);
}

/**
 * The wind's effect on one segment over the forecast, in the tools' output shape.
 *
 * A wind `windOnSegment` remembered for the hour set is one segment's, in
 * that segment's zone, and shared by every answer in that hour; its report is
 * remembered with it (`derived-results.ts`), its window frozen, so that
 * `find_tailwind_segments` does not format the same windows' times again for
 * each call. Any other wind is shaped afresh.
 */
export function segmentWindReport(
  segment: Segment,
  hourSet: ForecastHourSet | null,
  options: WindOptions = {},
): SegmentWindReport {
  return judgedWindReport(windOnSegment(segment, hourSet, options), segmentTimeZone(segment));
}

/**
 * The same for a wind a use case has judged on a segment (`listedWinds`),
 * read in that segment's zone: remembered with the wind when it is the
 * hour set's.
 */
export function judgedWindReport(wind: SegmentWind | null, timeZone: string): SegmentWindReport {
  if (!wind) return NO_FORECAST;
  return derivedResults.fromValue(wind, REPORT, rememberedReport, timeZone);
}

/** A window's brief form: remembered with a remembered window (see `windReport`). */
const BRIEF = derivation<BriefWindowOut>('brief window');

/**
 * A window as a list shows it (`BriefWindowSchema`): its UTC times, the peak
 * and mean tailwind, the temperatures and the flags. A window every answer
 * of the hour set shares gets one frozen brief form (`derived-results.ts`),
 * so a list does not rebuild it per call.
 */
export function briefWindow(window: WindowOut | null): BriefWindowOut | null {
  return window && derivedResults.fromValue(window, BRIEF, briefOf, null);
}

function briefOf(window: WindowOut): BriefWindowOut {
  return Object.freeze({
    start: window.start,
    end: window.end,
    peak_tailwind_kmh: window.peak.tailwind_kmh,
    mean_tailwind_kmh: window.mean_tailwind_kmh,
    min_temperature_c: window.weather.min_temperature_c,
    max_temperature_c: window.weather.max_temperature_c,
    flags: window.flags,
  });
}
