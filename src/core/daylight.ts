import { getTimes } from 'suncalc';
import type { LatLon } from './bearing.ts';

const DAY_S = 86_400;

/**
 * A stretch of civil daylight (the sun's centre at or above 6° below the
 * horizon, when the road can be ridden without lights). `dawn`/`dusk` are
 * false where the stretch is cut by polar day rather than by twilight.
 */
export interface DaylightSpan {
  /** Unix seconds. */
  readonly start: number;
  readonly end: number;
  readonly startIsDawn: boolean;
  readonly endIsDusk: boolean;
}

/** Spans closer than this are one: the day-by-day sums meet to within seconds, not exactly. */
const JOIN_S = 60;

/**
 * Civil daylight at `point` covering `[fromS, untilS]`, from suncalc's civil
 * dawn and dusk (a well-kept sun-position library, after Meeus; accurate to
 * about a minute away from the poles). A solar day without civil dawn is
 * either light all day — polar day, or "white nights" when the sun sets but
 * never sinks 6° — or dark all day. The rare day with the sun below the
 * horizon yet above −6° all day (within ~2.5° of a pole) is counted dark:
 * refusing a ride there is safe, sending someone out in the dark is not.
 * Pure; spans are sorted and disjoint.
 */
export function civilDaylight(point: LatLon, fromS: number, untilS: number): readonly DaylightSpan[] {
  const spans: DaylightSpan[] = [];
  for (let day = Math.floor(fromS / DAY_S) - 1; day <= Math.floor(untilS / DAY_S) + 1; day++) {
    const times = getTimes(new Date((day * DAY_S + DAY_S / 2) * 1000), point.lat, point.lon);
    if (times.dawn && times.dusk) {
      spans.push({
        start: times.dawn.getTime() / 1000,
        end: times.dusk.getTime() / 1000,
        startIsDawn: true,
        endIsDusk: true,
      });
    } else if (times.sunrise || times.alwaysUp) {
      const nadir = times.nadir.getTime() / 1000;
      spans.push({ start: nadir, end: nadir + DAY_S, startIsDawn: false, endIsDusk: false });
    }
  }
  return join(spans.sort((a, b) => a.start - b.start));
}

function join(sorted: readonly DaylightSpan[]): DaylightSpan[] {
  const out: DaylightSpan[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start <= last.end + JOIN_S) {
      if (span.end > last.end) out[out.length - 1] = { ...last, end: span.end, endIsDusk: span.endIsDusk };
    } else out.push(span);
  }
  return out;
}

/** The span holding all of `[startS, endS]`, or null when any part of it is dark. */
export function daylightSpanOf(
  spans: readonly DaylightSpan[],
  startS: number,
  endS: number,
): DaylightSpan | null {
  return spans.find((span) => span.start <= startS && endS <= span.end) ?? null;
}
