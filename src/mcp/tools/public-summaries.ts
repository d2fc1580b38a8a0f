import { listHeadline } from '../../service/answer-words.ts';
import type { z } from 'zod';
import { localClock, localDateTime, localSpan } from '../../core/local-time.ts';
import { derivation, derivedResults } from '../../data/forecast/derived-results.ts';
import type { TailwindWindowSchema } from '../schemas/common.ts';
import {
  MAX_RADIUS_M,
  RIDE_REACH_M,
  type BriefWindowSchema,
  type FindTailwindSegmentsOutput,
} from '../schemas/find.ts';
import type { GetSegmentOutput } from '../schemas/segment.ts';
import { chanceBrief, chanceText, ensembleLine } from '../report/ensemble.ts';
import { flagLegend, flagsText, rainText, tailwindFigures, windFigure } from '../report/weather-words.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;
type BriefOut = z.infer<typeof BriefWindowSchema>;

const unix = (iso: string): number => Date.parse(iso) / 1000;

/**
 * "Sat 22 Nov 14:00–18:00 CET", or "Sat 22 Nov 21:00–Sun 23 Nov 01:00 CET"
 * across midnight: on the clock at the segment, with its zone, as the rider
 * plans the ride (see `core/local-time.ts`, the one format of every answer).
 */
export function windowSpan(window: WindowOut): string {
  return localSpan(unix(window.start), unix(window.end), window.time_zone);
}

/** "Paris, US (×4)": places that share a label are counted, not repeated. */
function countedLabels(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} (×${n})` : name)).join('; ');
}

/** Why there is no window, in words a rider reads aloud. */
export const NO_WINDOW: Readonly<Record<string, string>> = {
  no_forecast: 'no forecast here',
  no_tailwind: 'no tailwind in the next 3 days',
  dark: 'the only tailwind hours in the next 3 days are in the dark (include_darkness: true if you ride with lights)',
  wet: 'every daylight tailwind hour in the next 3 days is wet',
  gusty: 'every daylight tailwind hour in the next 3 days has gusts over the safety limit',
  wet_or_gusty: 'every daylight tailwind hour in the next 3 days is wet or too gusty',
};

const range = (low: number, high: number, unit: string): string =>
  low === high ? `${low} ${unit}` : `${low}–${high} ${unit}`;

/**
 * "2–4 °C, rain up to 0.3 mm/h, 45% chance of rain, gusts to 38 km/h at 10 m;
 * watch out: wet, cold": only what is known, in the words of `weather-words.ts`.
 */
function weatherText(w: WindowOut['weather'], flags: WindowOut['flags']): string {
  const parts: string[] = [];
  if (w.min_temperature_c !== null && w.max_temperature_c !== null)
    parts.push(range(w.min_temperature_c, w.max_temperature_c, '°C'));
  const rain = rainText(w.max_precipitation_mm, w.max_precipitation_probability_pct);
  if (rain !== null) parts.push(rain);
  if (w.max_gusts_kmh !== null) parts.push(`gusts to ${windFigure(w.max_gusts_kmh)}`);
  return `${parts.join(', ')}${flagsText(flags)}`;
}

/** The weather of a whole window, then its civil dusk on the clock at the place. */
export function conditionsText(window: WindowOut): string {
  const dusk = window.daylight?.civil_dusk
    ? `; civil dusk ${localClock(unix(window.daylight.civil_dusk), window.time_zone)}`
    : '';
  return `${weatherText(window.weather, window.flags)}${dusk}`;
}

/** A window's line (`get_segment`'s text): remembered with a window the hour set's answers share. */
const WINDOW_LINE = derivation<string>('window line');

function windowLine(window: WindowOut | null, status: string): string {
  if (!window) return NO_WINDOW[status] ?? status;
  return derivedResults.fromValue(window, WINDOW_LINE, describeWindow, null);
}

function describeWindow(window: WindowOut): string {
  const peak = window.peak;
  return (
    `${windowSpan(window)}, ` +
    tailwindFigures(
      peak.tailwind_kmh,
      window.mean_tailwind_kmh,
      peak.tailwind_kmh_rider_height,
      window.mean_tailwind_kmh_rider_height,
    ) +
    `; wind at the peak ${windFigure(peak.wind_speed_kmh)} from ${peak.wind_direction_deg}°; ` +
    conditionsText(window) +
    chanceText(window.chance)
  );
}

/** A brief window's line (see `briefWindow`); a window with its chance is a new object each call. */
const BRIEF_LINE = derivation<string>('brief window line');

/**
 * One item of a list, in the few figures that decide: when (local), the
 * tailwind, the temperature and what is marginal (the flags: the window's
 * hours are rideable, so rain and gusts are named only when a flag says so),
 * and for a Pro rider the chance. The wind at the peak, the rain and gust
 * figures, the rider-height winds and civil dusk are left to the data, the
 * answer's daylight line and get_segment.
 */
function briefLine(window: BriefOut | null, status: string, timeZone: string, best = 'best '): string {
  if (!window) return NO_WINDOW[status] ?? status;
  return (
    best + derivedResults.fromValue(window, BRIEF_LINE, describeBrief, timeZone) + chanceBrief(window.chance)
  );
}

/** A brief window's own words, without the chance (a Pro window's, new each call). */
function describeBrief(window: BriefOut, timeZone: string): string {
  const { min_temperature_c: low, max_temperature_c: high } = window;
  const temperature = low === null || high === null ? '' : `, ${range(low, high, '°C')}`;
  return (
    `${localSpan(unix(window.start), unix(window.end), timeZone)}, ` +
    // A one-hour window (or a flat one) has one figure: its peak is its mean.
    (window.peak_tailwind_kmh === window.mean_tailwind_kmh
      ? `tailwind ${windFigure(window.mean_tailwind_kmh)}`
      : `tailwind peak ${window.peak_tailwind_kmh}, mean ${windFigure(window.mean_tailwind_kmh)}`) +
    `${temperature}${flagsText(window.flags)}`
  );
}

/** A day's words: remembered with a place's days (`daylightDays`); a day of a place always reads in the place's zone. */
const DAY_WORDS = derivation<string>('day words');

/** "Sat 21 Nov 07:19–17:52 CET", "dusk Sat 21 Nov 17:52 CET" or '' (polar day: neither). */
function dayWords(day: FindTailwindSegmentsOutput['daylight'][number], zone: string): string {
  return derivedResults.fromValue(day, DAY_WORDS, describeDay, zone);
}

function describeDay(day: FindTailwindSegmentsOutput['daylight'][number], zone: string): string {
  const { civil_dawn: dawn, civil_dusk: dusk } = day;
  return dawn && dusk
    ? localSpan(unix(dawn), unix(dusk), zone)
    : dawn
      ? `dawn ${localDateTime(unix(dawn), zone)}`
      : dusk
        ? `dusk ${localDateTime(unix(dusk), zone)}`
        : '';
}

/** "Civil dawn–dusk at Girona, ES: Sat 21 Nov 07:19–17:52 CET; …": the answer's daylight, once. */
function daylightLine(data: FindTailwindSegmentsOutput): string {
  const days = data.daylight.flatMap((day) => {
    const words = dayWords(day, data.time_zone);
    return words === '' ? [] : [words];
  });
  if (data.daylight.length === 0) return `\nNo civil daylight at ${data.place.name} in the next 3 days.`;
  if (days.length === 0) return `\nCivil daylight all day at ${data.place.name} in the next 3 days.`;
  return `\nCivil dawn–dusk at ${data.place.name}: ${days.join('; ')}.`;
}

/** The forecast's source and issue time, on the clock of the place the answer is about, and its note. */
function forecastLine(forecast: FindTailwindSegmentsOutput['forecast'], timeZone: string): string {
  if (!forecast) return '';
  const line = `\nForecast: ${forecast.source}, issued ${localDateTime(unix(forecast.issued_at), timeZone)}.`;
  return forecast.note ? `${line} ${forecast.note}` : line;
}

export function summarizeFind(data: FindTailwindSegmentsOutput): string {
  const km = data.radius_m / 1000;
  const beyondList = data.nearest_beyond_radius ?? [];
  const headline = listHeadline({
    placeName: data.place.name,
    radiusKm: km,
    withinRadius: data.segments.length > 0,
    distancesKm:
      data.segments.length > 0
        ? data.segments.map(() => 0)
        : beyondList.map((s) => s.distance_from_place_m / 1000),
  });
  const head = `${headline} (${data.place.resolved_by}).`;
  const names = countedLabels(data.place.alternatives.map((a) => a.name));
  const asked = data.place.query ?? data.place.name;
  const others =
    data.place.area?.kind === 'region' && data.place.ambiguous
      ? ` "${asked}" is a region: ${data.segments.length > 0 ? `these are its best-known segments within ${km} km of its middle` : `no catalog segment lies within ${km} km of its middle`}; ask the rider which part, then call again with a town there${data.place.alternatives.length > 0 ? ` (alternatives: ${names})` : ''}.`
      : data.place.alternatives.length === 0
        ? ''
        : data.place.ambiguous
          ? ` Ambiguous: "${asked}" may also mean ${names}; ask the rider which, then call again with "Name, CC".`
          : ` Other places with this name: ${names}; see alternatives for their coordinates.`;
  const area = data.place.area;
  // An area named alone is searched at its own extent (searchRadiusM); only one wider than the widest search says so.
  const wider =
    area !== null && area.radius_m > data.radius_m
      ? ` The ${area.kind} reaches about ${Math.round(area.radius_m / 1000)} km from its point; this search covers ${km} km of it, the most one does.`
      : '';
  const lines = data.segments.map(
    (s) =>
      `- ${s.name} [${s.id}], ${(s.distance_m / 1000).toFixed(1)} km at ${s.average_grade_pct}%: ${briefLine(s.best_window, s.window_status, s.time_zone ?? data.time_zone)}`,
  );
  // A hint only where it can help: no larger radius past the largest.
  const empty =
    data.segments.length === 0 && data.radius_m < MAX_RADIUS_M
      ? ` Try a larger radius_m (up to ${MAX_RADIUS_M}) or another place.`
      : '';
  const windows = [
    ...data.segments.map((s) => s.best_window),
    ...(data.nearest_beyond_radius ?? []).map((s) => s.best_window),
    ...(data.headings ?? []).map((h) => h.best_window),
  ];
  return (
    [
      head + wider + others + empty,
      ...lines,
      ...noneNear(data),
      ...(data.mapping ? [data.mapping] : []),
    ].join('\n') +
    flagLegend(windows.flatMap((w) => w?.flags ?? [])) +
    daylightLine(data) +
    forecastLine(data.forecast, data.time_zone) +
    ensembleLine(data.ensemble, { spread: false })
  );
}

/** The empty-hand answer: nearest segments beyond the radius, then the headings, named as such. */
function noneNear(data: FindTailwindSegmentsOutput): string[] {
  const beyond = (data.nearest_beyond_radius ?? []).map(
    (s) =>
      `- ${s.name} [${s.id}], ${(s.distance_from_place_m / 1000).toFixed(0)} km away: ${briefLine(s.best_window, s.window_status, s.time_zone ?? data.time_zone)}`,
  );
  const headings = (data.headings ?? []).map(
    (h) =>
      `- heading ${h.heading} (${h.bearing_deg}°): ${briefLine(h.best_window, h.window_status, data.time_zone, '')}`,
  );
  const none =
    data.nearest_beyond_radius?.length === 0
      ? [
          `No catalog segment within ${RIDE_REACH_M / 1000} km of ${data.place.name}: none is a ride from here.`,
        ]
      : [];
  return [
    ...none,
    ...(beyond.length > 0 ? ['Nearest catalog segments, beyond the radius:', ...beyond] : []),
    ...(headings.length > 0
      ? [
          `HEADINGS, NOT SEGMENTS: the best window at ${data.place.name} for roads leaving it each way:`,
          ...headings,
        ]
      : []),
    ...(data.add_your_own ? [data.add_your_own] : []),
  ];
}

export function summarizeSegment(data: GetSegmentOutput): string {
  const s = data.segment;
  const now = data.wind_now
    ? `Now: ${data.wind_now.effect} ${windFigure(data.wind_now.tailwind_kmh, data.wind_now.tailwind_kmh_rider_height)} along the segment, crosswind ${windFigure(data.wind_now.crosswind_kmh)}.`
    : 'Now: no forecast.';
  return (
    `${s.name} [${s.id}], ${s.country_code}: ${(s.distance_m / 1000).toFixed(1)} km, ${s.average_grade_pct}% average, ` +
    `${s.elevation_gain_m} m gain, heading ${s.compass} (${s.bearing_deg}°).\n${now}\n` +
    `Best window: ${windowLine(data.best_window, data.window_status)}.` +
    flagLegend(data.best_window?.flags ?? []) +
    forecastLine(data.forecast, data.time_zone) +
    ensembleLine(data.ensemble)
  );
}
