import type { SegmentHour, TailwindWindow, WindSample } from '../../core/tailwind-window.ts';
import type { Segment } from '../../data/segments/types.ts';
import type { z } from 'zod';
import type { SegmentHourSchema, TailwindWindowSchema, WindowStatusSchema } from '../schemas/common.ts';
import { isoTime } from '../../core/time.ts';
import { windOnSegment } from '../../data/segments/segment-window.ts';

type HourOut = z.infer<typeof SegmentHourSchema>;
type WindowOut = z.infer<typeof TailwindWindowSchema>;

export interface SegmentWindReport {
  /** Every hour in output shape, formatted only when asked for (`get_segment`, the Pro timeline). */
  timeline(): readonly HourOut[];
  readonly bestWindow: WindowOut | null;
  readonly windowStatus: z.infer<typeof WindowStatusSchema>;
}

function hourOut(hour: SegmentHour): HourOut {
  return {
    time: isoTime(hour.time),
    tailwind_kmh: hour.tailwindKmh,
    crosswind_kmh: hour.crosswindKmh,
    effect: hour.effect,
    wind_speed_kmh: hour.windSpeedKmh,
    wind_direction_deg: hour.windDirectionDeg,
    wind_gusts_kmh: hour.windGustsKmh,
  };
}

function windowOut(window: TailwindWindow): WindowOut {
  return {
    start: isoTime(window.start),
    end: isoTime(window.end),
    hours: window.hours,
    peak: hourOut(window.peak),
    mean_tailwind_kmh: window.meanTailwindKmh,
  };
}

/** The wind's effect on one segment over the forecast, in the tools' output shape. */
export function segmentWindReport(
  segment: Segment,
  samples: readonly WindSample[] | null,
): SegmentWindReport {
  const wind = windOnSegment(segment, samples);
  if (!wind) return { timeline: () => [], bestWindow: null, windowStatus: 'no_forecast' };
  const { timeline, best } = wind;
  return {
    timeline: () => timeline.map(hourOut),
    bestWindow: best && windowOut(best),
    windowStatus: best ? 'found' : 'no_tailwind',
  };
}
