import type { BestWindow } from '../../rest/schemas/segment-results.ts';
import { GUSTY_KMH, isWet } from '../../core/rideable.ts';

/**
 * How the segment pages word the API's figures. Pure: the times are read
 * from the answers' `*_local` strings, which carry the segment's own offset,
 * so a rider in another zone sees the segment's clock, as the API means it,
 * and no time-zone database ships to the browser.
 */

type WindowStatus = 'found' | 'no_tailwind' | 'dark' | 'wet' | 'gusty' | 'wet_or_gusty' | 'no_forecast';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/** "Sat 28 Nov" and "10:00" of an ISO time with offset, on its own wall clock. */
export function localParts(isoLocal: string): { day: string; clock: string } {
  const match = LOCAL.exec(isoLocal);
  if (!match) return { day: '', clock: isoLocal };
  const [, year, month, date, hour, minute] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return {
    day: `${DAYS[weekday] ?? ''} ${date} ${MONTHS[month - 1] ?? ''}`,
    clock: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`,
  };
}

/** The offset of an ISO time in minutes east of UTC ("+05:30" → 330, "Z" → 0). */
export function offsetMinutes(isoLocal: string): number {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(isoLocal);
  if (!match) return 0;
  const sign = match[1] === '-' ? -1 : 1;
  return sign * (Number(match[2]) * 60 + Number(match[3]));
}

/** "Sat 28 Nov, 10:00–13:00", or across midnight "Sat 28 Nov 22:00 – Sun 29 Nov 01:00". */
export function windowText(window: Pick<BestWindow, 'start_local' | 'end_local'>): string {
  const start = localParts(window.start_local);
  const end = localParts(window.end_local);
  // A window ending at midnight ends on the next day's 00:00, still "that evening".
  if (start.day === end.day || end.clock === '00:00') return `${start.day}, ${start.clock}–${end.clock}`;
  return `${start.day} ${start.clock} – ${end.day} ${end.clock}`;
}

/** "+12.3 km/h" or "−4.0 km/h" (a true minus sign), one decimal. */
export function signedKmh(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '±';
  return `${sign}${Math.abs(rounded).toFixed(1)} km/h`;
}

/** Why a segment has no best window, as a sentence (the API's `window_status`). */
export const WINDOW_STATUS_WORDS: Readonly<Record<WindowStatus, string>> = {
  found: 'A tailwind window is forecast.',
  no_tailwind: 'No daylight hour in the next three days has the wind behind you here.',
  dark: 'The tailwind comes only in the dark.',
  wet: 'The tailwind hours are wet.',
  gusty: `The tailwind hours have gusts of ${GUSTY_KMH} km/h or more.`,
  wet_or_gusty: 'The tailwind hours are wet or gusty.',
  no_forecast: 'No forecast could be had for this segment just now.',
};

/** The words for a status the API may add later: said plainly rather than hidden. */
export function windowStatusWords(status: string): string {
  return (WINDOW_STATUS_WORDS as Readonly<Record<string, string>>)[status] ?? `No window (${status}).`;
}

/** An hour marked as rain on the timeline: the one rain rule, by which it is withheld from windows. */
export function isRainHour(hour: {
  precipitation_mm: number | null;
  precipitation_probability_pct: number | null;
}): boolean {
  return isWet({
    precipitationMm: hour.precipitation_mm,
    precipitationProbabilityPct: hour.precipitation_probability_pct,
  });
}

/** An hour marked as gusty on the timeline: the rule that flags a window `gusty`. */
export function isGustHour(hour: { wind_gusts_kmh: number | null }): boolean {
  return hour.wind_gusts_kmh !== null && hour.wind_gusts_kmh >= GUSTY_KMH;
}

/**
 * Reads "41.98, 2.82" (or "41.98 2.82", or with a degree sign) as a point, so
 * the search box takes coordinates as well as names; undefined for anything
 * else, including numbers out of range, which are then searched as a name
 * and refused by the API with its own message.
 */
export function parseCoordinates(text: string): { lat: number; lon: number } | undefined {
  const match = /^\s*(-?\d{1,2}(?:\.\d+)?)°?\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)°?\s*$/.exec(text);
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  return { lat, lon };
}

/**
 * The API query for what the page's own URL asks: `?place=`, `?lat=&lon=`,
 * or a `place` that is really coordinates; `radius_km` passes through. Null
 * when the URL asks nothing yet (the empty search page).
 */
export function segmentsQuery(pageSearch: URLSearchParams): URLSearchParams | null {
  const query = new URLSearchParams();
  const place = pageSearch.get('place')?.trim();
  const lat = pageSearch.get('lat');
  const lon = pageSearch.get('lon');
  const point = place ? parseCoordinates(place) : undefined;
  if (point) {
    query.set('lat', String(point.lat));
    query.set('lon', String(point.lon));
  } else if (place) {
    query.set('place', place);
  } else if (lat !== null && lon !== null) {
    query.set('lat', lat);
    query.set('lon', lon);
  } else {
    return null;
  }
  const radius = pageSearch.get('radius_km');
  if (radius) query.set('radius_km', radius);
  return query;
}

/** The segment id of a `/segments/<id>` path (decoded, trailing slash allowed), or undefined. */
export function segmentIdFromPath(pathname: string): string | undefined {
  const match = /^\/segments\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}
