import type { LatLon } from '../../core/bearing.ts';
import type { ForecastHourSet } from '../../data/forecast/hour-set.ts';
import type { WindOptions } from '../../data/segments/segment-window.ts';
import { headingWinds } from '../../service/segments-near.ts';
import type { z } from 'zod';
import type { HeadingWindowSchema } from '../schemas/find.ts';
import { briefWindow, windReport } from './segment-report.ts';

type HeadingOut = z.infer<typeof HeadingWindowSchema>;

/**
 * For a place with no catalog segment near: the best rideable window for a
 * straight road leaving it towards each of the eight compass points
 * (`headingWinds`, judged on the forecast and daylight at the place itself),
 * in the tools' brief form. A rider picks real roads that head roughly that
 * way; these are directions, never segments.
 */
export function headingWindows(
  point: LatLon,
  samples: ForecastHourSet | null,
  options: WindOptions = {},
): HeadingOut[] {
  const { timeZone, headings } = headingWinds(point, samples, options);
  return headings.map(({ heading, bearingDeg, wind }) => {
    const report = windReport(wind, timeZone);
    return {
      heading,
      bearing_deg: bearingDeg,
      best_window: briefWindow(report.bestWindow),
      window_status: report.windowStatus,
    };
  });
}
