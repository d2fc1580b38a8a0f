import type { LatLon } from '../../core/bearing.ts';
import { COMPASS_POINTS } from '../../core/compass.ts';
import type { ForecastHourSet } from '../../data/forecast/hour-set.ts';
import type { z } from 'zod';
import type { HeadingWindowSchema } from '../schemas/find.ts';
import { briefWindow, windReport } from './segment-report.ts';
import { windOnLegs, type WindOptions } from '../../data/segments/segment-window.ts';
import { timeZoneAt } from '../../data/time-zone/zone-at.ts';

type HeadingOut = z.infer<typeof HeadingWindowSchema>;

/**
 * For a place with no catalog segment near: the best rideable window for a
 * straight road leaving it towards each of the eight compass points, judged
 * on the forecast and daylight at the place itself. A rider picks real
 * roads that head roughly that way; these are directions, never segments.
 */
export function headingWindows(
  point: LatLon,
  samples: ForecastHourSet | null,
  options: WindOptions = {},
): HeadingOut[] {
  const timeZone = timeZoneAt(point);
  return COMPASS_POINTS.map((heading, i) => {
    const bearingDeg = i * 45;
    const report = windReport(
      windOnLegs([{ bearingDeg, weight: 1 }], point, samples?.hours ?? null, options),
      timeZone,
    );
    return {
      heading,
      bearing_deg: bearingDeg,
      best_window: briefWindow(report.bestWindow),
      window_status: report.windowStatus,
    };
  });
}
