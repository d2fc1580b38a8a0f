import type { LatLon } from '../../../core/bearing.ts';
import { toRadians } from '../../../core/angles.ts';
import { lonStep } from '../../../core/route/route-geometry.ts';

/** A point of the drawing, in SVG user units (y grows downwards). */
export interface ScreenPoint {
  readonly x: number;
  readonly y: number;
}

/** The drawing area: the route is fitted inside it, `padding` units from every edge. */
export interface MapFrame {
  readonly width: number;
  readonly height: number;
  readonly padding: number;
}

/** Extents smaller than this (degrees) are treated as zero: floating-point noise, not geography. */
const MIN_SPAN_DEG = 1e-7;

/**
 * Longitudes made continuous: each is moved by whole turns to lie within 180° of
 * the one before. A ride across the antimeridian (179.9° → −179.9°) then stays a
 * 0.2° step instead of a line across the whole map; the values may leave
 * [−180, 180], which is fine for a local projection.
 */
export function unwrapLongitudes(points: readonly LatLon[]): readonly LatLon[] {
  let previous: number | undefined;
  return points.map((point) => {
    const lon = previous === undefined ? point.lon : previous + lonStep(previous, point.lon);
    previous = lon;
    return { lat: point.lat, lon };
  });
}

/**
 * Projects a route onto the frame with a local equirectangular projection:
 * longitude differences shrink by cos(latitude) at the middle of the route, so
 * a ride of a few hundred kilometres keeps its shape without map tiles or a
 * projection library (the only maths is one cosine). North is up, the scale is
 * the same on both axes, and the route is centred in the frame.
 */
export function projectRoute(points: readonly LatLon[], frame: MapFrame): readonly ScreenPoint[] {
  const unwrapped = unwrapLongitudes(points);
  if (unwrapped.length === 0) return [];
  const lats = unwrapped.map((point) => point.lat);
  const lons = unwrapped.map((point) => point.lon);
  const [minLat, maxLat] = [Math.min(...lats), Math.max(...lats)];
  const [minLon, maxLon] = [Math.min(...lons), Math.max(...lons)];
  const midLat = (minLat + maxLat) / 2;
  const midLon = (minLon + maxLon) / 2;
  // Never exactly 0, so a route at a pole still has an east-west extent to scale.
  const shrink = Math.max(Math.cos(toRadians(midLat)), 1e-6);
  const spanX = (maxLon - minLon) * shrink;
  const spanY = maxLat - minLat;
  const usableW = frame.width - 2 * frame.padding;
  const usableH = frame.height - 2 * frame.padding;
  // An extent under ~1 cm (below the 5-decimal precision routes are read at) counts as
  // none: a route along one meridian or parallel is scaled by its other axis, one spot is centred.
  const scale = Math.min(
    spanX > MIN_SPAN_DEG ? usableW / spanX : Infinity,
    spanY > MIN_SPAN_DEG ? usableH / spanY : Infinity,
  );
  const finite = Number.isFinite(scale) ? scale : 0;
  return unwrapped.map((point) => ({
    x: frame.width / 2 + (point.lon - midLon) * shrink * finite,
    y: frame.height / 2 - (point.lat - midLat) * finite,
  }));
}

/** Consecutive legs with the same effect, drawn as one line: `from`..`to` are leg indices, inclusive. */
export interface LegRun<Effect extends string> {
  readonly effect: Effect;
  readonly from: number;
  readonly to: number;
}

/**
 * Groups legs into runs of one effect. A GPS track has thousands of legs; one
 * SVG path per run keeps the drawing to a few dozen elements while every leg is
 * still in exactly one run of its own effect.
 */
export function legRuns<Effect extends string>(effects: readonly Effect[]): readonly LegRun<Effect>[] {
  const runs: LegRun<Effect>[] = [];
  effects.forEach((effect, index) => {
    const last = runs.at(-1);
    if (last && last.effect === effect) runs[runs.length - 1] = { ...last, to: index };
    else runs.push({ effect, from: index, to: index });
  });
  return runs;
}

/** Two decimals of an SVG unit: finer than a screen pixel, short enough to keep paths small. */
const coordinate = (value: number): string => String(Math.round(value * 100) / 100);

/** The SVG path of a polyline (`M x y L x y …`). */
export function polylinePath(points: readonly ScreenPoint[]): string {
  return points
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${coordinate(point.x)} ${coordinate(point.y)}`)
    .join(' ');
}
