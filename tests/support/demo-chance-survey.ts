import {
  DEFAULT_CHANCE_THRESHOLD_KMH,
  chanceWord,
  hourSpread,
  windowSpread,
} from '../../src/core/ensemble-chance.ts';
import type { ChanceWord } from '../../src/core/ensemble-chance.ts';
import { createDemoEnsemble } from '../../src/data/forecast/ensemble-demo.ts';
import { forecastPointOf, legsOf } from '../../src/data/segments/segment-geometry.ts';
import type { Segment } from '../../src/data/segments/types.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { forecastForSegments } from '../../src/mcp/report/forecast.ts';
import { segmentWindReport } from '../../src/mcp/report/segment-report.ts';

/** The demo ensemble's hourly members at each segment's forecast point, in the segments' order. */
export type DemoSeries = Awaited<ReturnType<ReturnType<typeof createDemoEnsemble>['hourly']>>;

/**
 * The demo ensemble at the segments' forecast points, as seen at `now`: read once and shared by the
 * survey and the spreads (each read of the whole catalog takes most of a second).
 */
export function demoSeries(now: () => number, segments: readonly Segment[]): Promise<DemoSeries> {
  return createDemoEnsemble({ clock: now }).hourly(segments.map(forecastPointOf));
}

/** One segment's best window as get_segment judges it, with the demo ensemble's chance. */
export interface SurveyedWindow {
  readonly segmentId: string;
  /** Hours from now to the window's start. */
  readonly leadH: number;
  readonly chance: number;
  readonly words: ChanceWord;
}

/**
 * The best window of each segment (the deterministic rule of get_segment)
 * with its chance from the demo ensemble at the tools' default threshold:
 * what a Pro rider would read for every segment. Used by the demo-spread
 * test and to measure the bands before and after a change of the demo.
 */
export async function surveyBestWindowChances(
  context: Pick<ToolContext, 'forecast' | 'now'>,
  segments: readonly Segment[],
  series: DemoSeries,
): Promise<SurveyedWindow[]> {
  const forecast = await forecastForSegments(context as ToolContext, segments);
  const out: SurveyedWindow[] = [];
  segments.forEach((segment, i) => {
    const window = segmentWindReport(segment, forecast.samples[i] ?? null).bestWindow;
    const hours = series[i]?.hours;
    if (!window || !hours) return;
    const span = { start: Date.parse(window.start) / 1000, end: Date.parse(window.end) / 1000 };
    const spread = windowSpread(legsOf(segment), hours, span, DEFAULT_CHANCE_THRESHOLD_KMH);
    if (!spread) return;
    out.push({
      segmentId: segment.id,
      leadH: (span.start * 1000 - context.now()) / 3_600_000,
      chance: spread.chance,
      words: chanceWord(spread.chance),
    });
  });
  return out;
}

/** The mean p90 − p10 of the hourly signed tailwind at a lead (hours from the first hour) over segments. */
export function meanHourlySpread(series: DemoSeries, segments: readonly Segment[], leadH: number): number {
  let sum = 0;
  let n = 0;
  segments.forEach((segment, i) => {
    const sample = series[i]?.hours[leadH];
    const spread = sample && hourSpread(legsOf(segment), sample, DEFAULT_CHANCE_THRESHOLD_KMH);
    if (!spread) return;
    sum += spread.p90Kmh - spread.p10Kmh;
    n += 1;
  });
  return n === 0 ? NaN : sum / n;
}
