/**
 * A segment's best tailwind window from a forecast series, computed the way
 * the MCP tools compute it (`forecastForSegments` + `segmentWindReport` in
 * `src/mcp/report/`), so an alert names the window `get_my_watchlist` shows
 * at the same hour. Context-free: the alert job has no tool call around it.
 */
import { bestTailwindWindow, HOUR_S, segmentTimeline, type TailwindWindow } from '../core/tailwind-window.ts';
import { FORECAST_HOURS, type WindHour, type WindSeries } from '../data/forecast/types.ts';
import type { Segment } from '../data/segments/types.ts';
import { legsOf } from '../mcp/report/segment-geometry.ts';
import { currentHour } from '../mcp/report/time.ts';

/** The hours the tools judge: from the current UTC hour to {@link FORECAST_HOURS} ahead. */
export function hoursAhead(series: WindSeries, nowMs: number): readonly WindHour[] {
  const from = currentHour(nowMs);
  const until = from + FORECAST_HOURS * HOUR_S;
  return series.hours.filter((hour) => hour.time >= from && hour.time < until);
}

/** The segment's best window in the hours ahead, or null when none of them is a tailwind. */
export function segmentBestWindow(
  segment: Segment,
  series: WindSeries,
  nowMs: number,
): TailwindWindow | null {
  const samples = hoursAhead(series, nowMs);
  return samples.length === 0 ? null : bestTailwindWindow(segmentTimeline(legsOf(segment), samples));
}
