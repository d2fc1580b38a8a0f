import type { LatLon } from '../../core/bearing.ts';
import { civilDaylight } from '../../core/daylight.ts';
import { HOUR_S } from '../../core/tailwind-window.ts';
import { isoTime } from '../../core/time.ts';
import { FORECAST_HOURS } from '../../data/forecast/types.ts';
import type { z } from 'zod';
import type { DaylightDaySchema } from '../schemas/find.ts';

type DaylightDay = z.infer<typeof DaylightDaySchema>;

/**
 * Civil dawn and dusk at a place for each day the 72-hour forecast touches:
 * said once per answer rather than on every window of a list, since the
 * segments and headings of one place share them to within minutes. A span
 * cut by polar day rather than by twilight has that end null.
 */
export function daylightDays(point: LatLon, nowMs: number): DaylightDay[] {
  const from = Math.floor(nowMs / 1000 / HOUR_S) * HOUR_S;
  const until = from + FORECAST_HOURS * HOUR_S;
  return civilDaylight(point, from, until)
    .filter((span) => span.end > from && span.start < until)
    .map((span) => ({
      civil_dawn: span.startIsDawn ? isoTime(Math.round(span.start)) : null,
      civil_dusk: span.endIsDusk ? isoTime(Math.round(span.end)) : null,
    }));
}
