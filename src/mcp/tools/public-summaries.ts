import type { z } from 'zod';
import type { TailwindWindowSchema } from '../schemas/common.ts';
import type { FindTailwindSegmentsOutput } from '../schemas/find.ts';
import type { GetSegmentOutput } from '../schemas/segment.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;

/** One formatter for every call: building one per date cost 25 times more (measured in the bench). */
const DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const day = (d: Date) => DAY.format(d);
const clock = (d: Date) => d.toISOString().slice(11, 16);

/**
 * "Sat 22 Nov 14:00–18:00 UTC", or "Sat 22 Nov 21:00–Sun 23 Nov 01:00 UTC"
 * across midnight: short enough to read aloud, exact enough to act on.
 */
function span(window: WindowOut): string {
  const start = new Date(window.start);
  const end = new Date(window.end);
  const lastHour = new Date(end.getTime() - 1);
  const endDay = day(lastHour) === day(start) ? '' : `${day(end)} `;
  return `${day(start)} ${clock(start)}–${endDay}${clock(end)} UTC`;
}

/** "Paris, US (×4)": places that share a label are counted, not repeated. */
function countedLabels(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} (×${n})` : name)).join('; ');
}

function windowLine(window: WindowOut | null, status: string): string {
  if (!window) return status === 'no_forecast' ? 'no forecast here' : 'no tailwind in the next 3 days';
  const peak = window.peak;
  return `${span(window)}, peak tailwind ${peak.tailwind_kmh} km/h (mean ${window.mean_tailwind_kmh}, wind ${peak.wind_speed_kmh} km/h from ${peak.wind_direction_deg}°)`;
}

function forecastLine(forecast: FindTailwindSegmentsOutput['forecast']): string {
  if (!forecast) return '';
  return forecast.note
    ? `\nNote: ${forecast.note}`
    : `\nForecast: ${forecast.source}, issued ${forecast.issued_at}.`;
}

export function summarizeFind(data: FindTailwindSegmentsOutput): string {
  const km = data.radius_m / 1000;
  const head = `${data.segments.length} segment(s) within ${km} km of ${data.place.name} (${data.place.resolved_by}).`;
  const others =
    data.place.alternatives.length > 0
      ? ` Other places with this name: ${countedLabels(data.place.alternatives.map((a) => a.name))}; see alternatives for their coordinates.`
      : '';
  const lines = data.segments.map(
    (s) =>
      `- ${s.name} [${s.id}], ${(s.distance_m / 1000).toFixed(1)} km at ${s.average_grade_pct}%: ${s.best_window ? 'best ' : ''}${windowLine(s.best_window, s.window_status)}`,
  );
  const empty = data.segments.length === 0 ? ' Try a larger radius_m (up to 100000) or another place.' : '';
  return [head + others + empty, ...lines].join('\n') + forecastLine(data.forecast);
}

export function summarizeSegment(data: GetSegmentOutput): string {
  const s = data.segment;
  const now = data.wind_now
    ? `Now: ${data.wind_now.effect} ${data.wind_now.tailwind_kmh} km/h along the segment, crosswind ${data.wind_now.crosswind_kmh} km/h.`
    : 'Now: no forecast.';
  return (
    `${s.name} [${s.id}], ${s.country_code}: ${(s.distance_m / 1000).toFixed(1)} km, ${s.average_grade_pct}% average, ` +
    `${s.elevation_gain_m} m gain, heading ${s.compass} (${s.bearing_deg}°).\n${now}\n` +
    `Best window: ${windowLine(data.best_window, data.window_status)}.` +
    forecastLine(data.forecast)
  );
}
