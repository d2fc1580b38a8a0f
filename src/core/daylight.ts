import { addTime, getPosition, getTimes } from 'suncalc';
import type { LatLon } from './bearing.ts';

const DAY_S = 86_400;

/**
 * The sun altitude (degrees) from which we count an hour as daylight: civil
 * twilight is −6°, and a quarter of a degree is kept in hand. suncalc
 * solves each solar day with the sun's declination at noon, which by the
 * next midnight may be off by up to 0.2° (near the equinoxes); where the
 * sun only grazes −6° (white nights, polar edges) that error alone could
 * put an "evening" hour in real darkness. The margin costs one to two
 * minutes at dawn and dusk at mid-latitudes.
 */
export const DAYLIGHT_SUN_ALTITUDE_DEG = -5.75;

addTime(DAYLIGHT_SUN_ALTITUDE_DEG, 'rideableDawn', 'rideableDusk');

const asDate = (value: unknown): Date | null => (value instanceof Date ? value : null);

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

/**
 * How far the sun may be from {@link DAYLIGHT_SUN_ALTITUDE_DEG} at a
 * crossing suncalc reports, for the crossing to be real. suncalc's position
 * is apparent, so refraction lifts it by about half a degree there, and the
 * day-long declination of its times is up to 0.2° off (see above); a stray
 * crossing is tens of degrees away.
 */
const CROSSING_TOLERANCE_DEG = 1;

/** Spans closer than this are one: the day-by-day sums meet to within seconds, not exactly. */
const JOIN_S = 60;

/**
 * Civil daylight at `point` covering `[fromS, untilS]`: the times the sun
 * crosses {@link DAYLIGHT_SUN_ALTITUDE_DEG}, from suncalc (a well-kept
 * sun-position library, after Meeus). A solar day without that crossing is
 * either light all day — polar day, or "white nights" when the sun sets but
 * never sinks that far — or dark all day. The rare day with the sun below
 * the horizon yet above that altitude all day (within ~2.5° of a pole) is
 * counted dark: refusing a ride there is safe, sending someone out in the
 * dark is not. The same holds for the few days a year, inside the polar
 * circles, when suncalc misses both crossings of a grazing sun. Spans are
 * sorted and disjoint.
 */
export function civilDaylight(point: LatLon, fromS: number, untilS: number): readonly DaylightSpan[] {
  const spans: DaylightSpan[] = [];
  for (let day = Math.floor(fromS / DAY_S) - 1; day <= Math.floor(untilS / DAY_S) + 1; day++) {
    const times = getTimes(new Date((day * DAY_S + DAY_S / 2) * 1000), point.lat, point.lon);
    const crossing = crossingsOf(point, times);
    if (crossing) {
      spans.push({
        start: crossing.dawn,
        end: crossing.dusk,
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

/**
 * The day's dawn and dusk at {@link DAYLIGHT_SUN_ALTITUDE_DEG} in Unix
 * seconds, or null when the sun does not cross it. Where the sun only grazes
 * that altitude, suncalc (2.0.2) can return a crossing months away, or at or
 * about solar noon, while the other crossing is sound. A crossing is taken
 * only where it is one: dawn between the nadir and noon, dusk between noon
 * and the next nadir, and the sun there at that altitude by suncalc's own
 * position of the sun at that instant. A stray crossing is rebuilt as the
 * mirror image of the sound one about noon (good to a few minutes, well
 * inside the margin); both stray, the day is treated as having none.
 */
function crossingsOf(
  point: LatLon,
  times: ReturnType<typeof getTimes>,
): { dawn: number; dusk: number } | null {
  const noon = times.solarNoon.getTime() / 1000;
  const nadir = times.nadir.getTime() / 1000;
  const sound = (value: unknown, from: number, to: number): number | null => {
    const date = asDate(value);
    const t = date ? date.getTime() / 1000 : null;
    if (t === null || t < from || t > to) return null;
    const altitudeDeg = getPosition(new Date(t * 1000), point.lat, point.lon).altitude;
    return Math.abs(altitudeDeg - DAYLIGHT_SUN_ALTITUDE_DEG) <= CROSSING_TOLERANCE_DEG ? t : null;
  };
  const dawn = sound(times['rideableDawn'], nadir, noon);
  const dusk = sound(times['rideableDusk'], noon, nadir + DAY_S);
  if (dawn !== null && dusk !== null) return { dawn, dusk };
  if (dawn !== null) return { dawn, dusk: 2 * noon - dawn };
  if (dusk !== null) return { dawn: 2 * noon - dusk, dusk };
  return null;
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
