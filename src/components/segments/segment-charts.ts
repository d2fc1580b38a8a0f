import type { BandSpec, ChartSpec, MarkerSpec } from '../charts/chart-spec.ts';
import type { BestWindow, SegmentHour } from '../../rest/schemas/segment-results.ts';
import { isGustHour, isRainHour, localParts, offsetMinutes, signedKmh, windowText } from './segment-words.ts';

/**
 * The segment page's two charts as chart specs (src/components/charts draws
 * them, as a picture and as a table). Pure, so what they show is tested
 * without a browser.
 */

const HOUR_MS = 3_600_000;

/** Runs of consecutive hours that pass `test`, as [first hour's start, last hour's end) in ms. */
export function hourRuns(
  hours: readonly SegmentHour[],
  test: (hour: SegmentHour) => boolean,
): [number, number][] {
  const runs: [number, number][] = [];
  for (const hour of hours) {
    if (!test(hour)) continue;
    const start = Date.parse(hour.time);
    const last = runs.at(-1);
    if (last && last[1] === start) last[1] = start + HOUR_MS;
    else runs.push([start, start + HOUR_MS]);
  }
  return runs;
}

/**
 * The wall-clock label of an instant on the segment's clock: the offset of
 * the forecast hour it falls in (so a change of summer time inside the 72
 * hours is followed), the weekday at midnight ("Sat") and "12:00" otherwise.
 */
export function localTickLabel(ms: number, hours: readonly SegmentHour[]): string {
  const hour = [...hours].reverse().find((candidate) => Date.parse(candidate.time) <= ms) ?? hours[0];
  const offset = hour ? offsetMinutes(hour.time_local) : 0;
  const shifted = new Date(ms + offset * 60_000).toISOString().slice(0, 16);
  const { day, clock } = localParts(shifted);
  return clock === '00:00' ? (day.split(' ')[0] ?? clock) : clock;
}

/** Ticks at midnight and noon of the segment's clock, at forecast hours: six over three days, room for each label on a phone. */
export function localTicks(hours: readonly SegmentHour[]): number[] {
  return hours
    .filter((hour) => ['00:00', '12:00'].includes(localParts(hour.time_local).clock))
    .map((hour) => Date.parse(hour.time));
}

/**
 * Signed tailwind hour by hour (bars above zero push, below hold back), the
 * best window shaded and its peak marked, darkness shaded, and the rain and
 * gust hours shaded by the same rules that flag a window wet or gusty.
 */
export function timelineSpec(
  hours: readonly SegmentHour[],
  best: BestWindow | null,
  segmentName: string,
): ChartSpec {
  const bands: BandSpec[] = [
    ...hourRuns(hours, (hour) => !hour.daylight).map(([from, to]) => ({
      from,
      to,
      label: 'Dark',
      kind: 'dark',
      showLabel: false,
    })),
    ...hourRuns(hours, isRainHour).map(([from, to]) => ({
      from,
      to,
      label: 'Rain likely',
      kind: 'rain',
      showLabel: false,
    })),
    ...hourRuns(hours, isGustHour).map(([from, to]) => ({
      from,
      to,
      label: 'Gusty',
      kind: 'gust',
      showLabel: false,
    })),
  ];
  const markers: MarkerSpec[] = [];
  if (best) {
    bands.push({
      from: Date.parse(best.start),
      to: Date.parse(best.end),
      label: 'Best window',
      kind: 'best',
      showLabel: true,
    });
    const inWindow = hours.filter((hour) => hour.time >= best.start && hour.time < best.end);
    const peak = inWindow.reduce<SegmentHour | undefined>(
      (top, hour) => (top === undefined || hour.signed_tailwind_kmh > top.signed_tailwind_kmh ? hour : top),
      undefined,
    );
    if (peak)
      markers.push({
        x: Date.parse(peak.time) + HOUR_MS / 2,
        y: peak.signed_tailwind_kmh,
        label: 'Peak of the best window',
        kind: 'best',
      });
  }
  const summary = best
    ? `Best window ${windowText(best)}, mean ${signedKmh(best.signed_tailwind_kmh)} along ${segmentName}.`
    : `No rideable tailwind window on ${segmentName} in these hours.`;
  return {
    title: `Signed tailwind on ${segmentName}, hour by hour`,
    summary,
    x: {
      label: 'Local time',
      kind: 'time',
      format: (ms) => localTickLabel(ms, hours),
      ticks: localTicks(hours),
    },
    y: { label: 'Tailwind (km/h)', format: (value) => String(Math.round(value * 10) / 10) },
    series: [
      {
        id: 'tailwind',
        label: 'Signed tailwind',
        kind: 'bars',
        bySign: true,
        points: hours.map((hour) => ({
          x: Date.parse(hour.time),
          xEnd: Date.parse(hour.time) + HOUR_MS,
          y: hour.signed_tailwind_kmh,
        })),
      },
    ],
    bands,
    markers,
  };
}

/** Height along the road, km against metres, the y axis fitted to the climb (not from sea level). */
export function profileSpec(
  profile: readonly { distance_km: number; elevation_m: number }[],
  segmentName: string,
): ChartSpec {
  const heights = profile.map((point) => point.elevation_m);
  const low = Math.min(...heights);
  const high = Math.max(...heights);
  const pad = Math.max(10, (high - low) * 0.1);
  return {
    title: `Elevation profile of ${segmentName}`,
    summary: `From ${Math.round(heights[0] ?? low)} m to ${Math.round(heights.at(-1) ?? high)} m; lowest ${Math.round(low)} m, highest ${Math.round(high)} m.`,
    x: { label: 'Distance (km)', format: (km) => `${Math.round(km * 10) / 10}` },
    y: {
      label: 'Elevation (m)',
      min: Math.floor((low - pad) / 10) * 10,
      max: Math.ceil((high + pad) / 10) * 10,
      format: (m) => String(Math.round(m)),
    },
    series: [
      {
        id: 'elevation',
        label: 'Elevation',
        kind: 'line',
        points: profile.map((point) => ({ x: point.distance_km, y: point.elevation_m })),
      },
    ],
  };
}
