import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { catalogDistanceM } from './catalog-distance.ts';

/** A GPX point; `ele` is absent when the file gives none. */
export interface GpxPoint extends LatLon {
  readonly ele?: number;
}

export interface GpxTrack {
  /** The first `<name>` of the track or route (or of the file's metadata), if any. */
  readonly name?: string;
  readonly points: readonly GpxPoint[];
}

/** One step of the elevation profile: distance from the start and elevation there. */
export interface ProfilePoint {
  readonly distanceM: number;
  readonly elevationM: number;
}

export interface TrackSummary {
  readonly polyline: readonly LatLon[];
  readonly profile: readonly ProfilePoint[];
  /** Whole metres along the points (haversine). */
  readonly distanceM: number;
  /** Whole metres of smoothed climbing; see {@link ELEVATION_THRESHOLD_M}. */
  readonly elevationGainM: number;
  /** Net rise over distance between the first and last points with an elevation, one decimal. */
  readonly averageGradePct: number;
}

/**
 * Climbing is counted with 3 m hysteresis: a rise is added only once the
 * elevation has moved 3 m from the last turning point. GPS and barometric
 * noise of a metre or two on a flat road would otherwise add up to tens of
 * metres of phantom climbing; a real climb loses at most 3 m per ascent.
 */
export const ELEVATION_THRESHOLD_M = 3;

/** Coordinates are kept to 5 decimals (about 1 m), finer than any consumer-GPS fix. */
const COORDINATE_DECIMALS = 5;

const POINT_PATTERN = /<(?:[\w-]+:)?(trkpt|rtept)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:[\w-]+:)?\1\s*>)/g;
const NAME_PATTERN = /<(?:[\w-]+:)?name\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?name\s*>/;
const ELE_PATTERN = /<(?:[\w-]+:)?ele\b[^>]*>([^<]*)</;

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return match?.[1] ?? match?.[2];
}

function decodeEntities(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

function parseCoordinate(raw: string | undefined, what: 'lat' | 'lon', index: number, kind: string): number {
  const value = raw === undefined ? Number.NaN : Number(raw.trim());
  const limit = what === 'lat' ? 90 : 180;
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || Math.abs(value) > limit) {
    throw new Error(
      `GPX ${kind} ${index + 1} has ${raw === undefined ? `no ${what} attribute` : `an invalid ${what} "${raw}"`}`,
    );
  }
  return roundHalfAway(value, COORDINATE_DECIMALS);
}

/**
 * Reads the points of a GPX file with a few regular expressions instead of an
 * XML library. GPX points are flat (`<trkpt lat lon>` with an optional
 * `<ele>` child), so this covers every GPX 1.0/1.1 file from route planners
 * and bike computers without adding a dependency to the server bundle; it
 * does not validate the XML. Track points win over route points; the
 * segments of a multi-segment track are joined in order.
 */
export function parseGpx(text: string): GpxTrack {
  const body = text.replace(/<!--[\s\S]*?-->/g, '');
  if (!/<(?:[\w-]+:)?gpx\b/.test(body)) throw new Error('Not a GPX file: no <gpx> element');
  const matches = [...body.matchAll(POINT_PATTERN)];
  const tracks = matches.filter((m) => m[1] === 'trkpt');
  const chosen = tracks.length > 0 ? tracks : matches;
  if (chosen.length < 2)
    throw new Error(`GPX file has ${chosen.length} track or route point(s); a segment needs at least 2`);
  const points = chosen.map((m, index): GpxPoint => {
    const kind = m[1] ?? 'point';
    const attributes = m[2] ?? '';
    const lat = parseCoordinate(attribute(attributes, 'lat'), 'lat', index, kind);
    const lon = parseCoordinate(attribute(attributes, 'lon'), 'lon', index, kind);
    const eleText = ELE_PATTERN.exec(m[3] ?? '')?.[1];
    const ele = eleText === undefined ? Number.NaN : Number(eleText.trim());
    return Number.isFinite(ele) && eleText?.trim() !== '' ? { lat, lon, ele } : { lat, lon };
  });
  const name = trackName(body, tracks.length > 0 ? 'trk' : 'rte', chosen[0]?.index ?? 0);
  return name === undefined ? { points } : { name, points };
}

/** The `<name>` of the chosen track or route, else the file's metadata name. */
function trackName(body: string, container: 'trk' | 'rte', firstPoint: number): string | undefined {
  const opening = new RegExp(`<(?:[\\w-]+:)?${container}[\\s>]`, 'g');
  let start = -1;
  for (const match of body.slice(0, firstPoint).matchAll(opening)) start = match.index;
  const metadata = /<(?:[\w-]+:)?metadata\b[\s\S]*?<\/(?:[\w-]+:)?metadata\s*>/.exec(body)?.[0] ?? '';
  for (const region of [start >= 0 ? body.slice(start, firstPoint) : '', metadata]) {
    const raw = NAME_PATTERN.exec(region)?.[1];
    const name = raw === undefined ? '' : decodeEntities(raw);
    if (name !== '') return name;
  }
  return undefined;
}

/** Sum of rises with {@link ELEVATION_THRESHOLD_M} hysteresis. */
export function smoothedGainM(elevations: readonly number[]): number {
  let reference = elevations[0];
  let gain = 0;
  for (const elevation of elevations) {
    if (reference === undefined) break;
    if (elevation - reference >= ELEVATION_THRESHOLD_M) {
      gain += elevation - reference;
      reference = elevation;
    } else if (reference - elevation >= ELEVATION_THRESHOLD_M) {
      reference = elevation;
    }
  }
  return gain;
}

/**
 * Turns GPX points into catalog figures. Elevations are required: without
 * them the grade and climbing a catalog entry must state would be guesses.
 */
export function summarizeTrack(points: readonly GpxPoint[]): TrackSummary {
  const withEle = points.filter((p): p is GpxPoint & { ele: number } => p.ele !== undefined);
  if (withEle.length < 2)
    throw new Error('GPX points carry no <ele> elevations; grade and climbing cannot be computed');
  const profile: ProfilePoint[] = [];
  let along = 0;
  points.forEach((point, i) => {
    const previous = points[i - 1];
    if (previous !== undefined) along += catalogDistanceM(previous, point);
    if (point.ele !== undefined) profile.push({ distanceM: Math.round(along), elevationM: point.ele });
  });
  if (along <= 0) throw new Error('GPX points are all at the same place');
  const first = profile[0];
  const last = profile[profile.length - 1];
  const spanM = (last?.distanceM ?? 0) - (first?.distanceM ?? 0);
  const riseM = (last?.elevationM ?? 0) - (first?.elevationM ?? 0);
  return {
    polyline: points.map(({ lat, lon }) => ({ lat, lon })),
    profile,
    distanceM: Math.round(along),
    elevationGainM: Math.round(smoothedGainM(withEle.map((p) => p.ele))),
    averageGradePct: spanM > 0 ? roundHalfAway((riseM / spanM) * 100, 1) : 0,
  };
}
