import type { LatLon } from '../../core/bearing.ts';
import { civilDaylight } from '../../core/daylight.ts';
import { HOUR_S } from '../../core/tailwind-window.ts';
import { isoTime } from '../../core/time.ts';
import { FORECAST_HOURS } from '../../data/forecast/types.ts';
import type { z } from 'zod';
import { derivedResults } from '../../data/forecast/derived-results.ts';
import type { CivilTwilightSchema } from '../schemas/common.ts';

type DaylightDay = z.infer<typeof CivilTwilightSchema>;

/** Places whose days are remembered for the hour: the sun computation and its formatting cost more than the rest of a find. */
export const REMEMBERED_PLACES = 512;

const remembered = new Map<string, readonly Readonly<DaylightDay>[]>();

function computeDays(point: LatLon, from: number): readonly Readonly<DaylightDay>[] {
  const until = from + FORECAST_HOURS * HOUR_S;
  return Object.freeze(
    civilDaylight(point, from, until)
      .filter((span) => span.end > from && span.start < until)
      .map((span) =>
        derivedResults.hold(
          Object.freeze({
            civil_dawn: span.startIsDawn ? isoTime(Math.round(span.start)) : null,
            civil_dusk: span.endIsDusk ? isoTime(Math.round(span.end)) : null,
          }),
        ),
      ),
  );
}

/**
 * Civil dawn and dusk at a place for each day the 72-hour forecast touches:
 * said once per answer rather than on every window of a list, since the
 * segments and headings of one place share them to within minutes. A span
 * cut by polar day rather than by twilight has that end null. The days of a
 * place are remembered for the forecast hour (a bounded number of places,
 * the oldest dropped first); each day is held by `derived-results.ts`, so
 * its words are remembered with it.
 */
export function daylightDays(point: LatLon, nowMs: number): DaylightDay[] {
  const from = Math.floor(nowMs / 1000 / HOUR_S) * HOUR_S;
  const key = `${point.lat},${point.lon},${from}`;
  let days = remembered.get(key);
  if (days === undefined) {
    days = computeDays(point, from);
    if (remembered.size >= REMEMBERED_PLACES) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
    remembered.set(key, days);
  }
  return [...days];
}
