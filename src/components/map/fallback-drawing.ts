import { toRadians } from '../../core/angles.ts';
import { lonStep } from '../../core/route/route-geometry.ts';
import type { LonLat } from './map-input.ts';
import type { EndMarker, MapPlan } from './map-plan.ts';
import { kmLabel } from './map-plan.ts';

/**
 * The fallback drawing's maths: the plan projected onto an SVG box with no
 * basemap. A local equirectangular projection (longitudes shrunk by the cosine
 * of the middle latitude) keeps a segment's shape over tens of kilometres
 * with one cosine and no projection library; north is up and both axes share
 * one scale. Kept apart from the DOM so it is tested without a browser.
 */

export interface DrawingFrame {
  readonly width: number;
  readonly height: number;
  readonly padding: number;
}

export interface DrawnPoint {
  readonly x: number;
  readonly y: number;
}

export interface FallbackDrawing {
  readonly frame: DrawingFrame;
  readonly paths: readonly { readonly d: string; readonly colour: string }[];
  readonly marks: readonly (DrawnPoint & { readonly label: string })[];
  /** `rotateDeg` turns an arrow drawn pointing up (north) to the direction of travel. */
  readonly arrows: readonly (DrawnPoint & { readonly rotateDeg: number })[];
  readonly ends: readonly (DrawnPoint & Pick<EndMarker, 'kind' | 'label' | 'badge'>)[];
  /** The place searched around, if any. */
  readonly place?: DrawnPoint & { readonly name: string };
}

/** Extents below this (degrees) count as zero: a single point is drawn in the middle, not divided by zero. */
const MIN_SPAN_DEG = 1e-9;

/** Two decimals of a user unit are far below a pixel. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Projects the plan into the frame. Longitudes are taken relative to the
 * west edge of the plan's (unwrapped) bounds, so a line across the
 * antimeridian stays in one piece.
 */
export function drawFallback(plan: MapPlan, frame: DrawingFrame): FallbackDrawing {
  const empty: FallbackDrawing = { frame, paths: [], marks: [], arrows: [], ends: [] };
  if (!plan.bounds) return empty;
  const [[west, south], [east, north]] = plan.bounds;
  const cosine = Math.cos(toRadians((south + north) / 2));
  const spanX = Math.max((east - west) * cosine, MIN_SPAN_DEG);
  const spanY = Math.max(north - south, MIN_SPAN_DEG);
  const innerW = frame.width - 2 * frame.padding;
  const innerH = frame.height - 2 * frame.padding;
  const scale = Math.min(innerW / spanX, innerH / spanY);
  const offsetX = frame.padding + (innerW - (east - west) * cosine * scale) / 2;
  const offsetY = frame.padding + (innerH - (north - south) * scale) / 2;
  const project = ([lon, lat]: LonLat): DrawnPoint => ({
    // The longitude's distance east of the west edge, the short way round (a map spans far less than 180°).
    x: round(offsetX + lonStep(west, lon) * cosine * scale),
    y: round(offsetY + (north - lat) * scale),
  });
  return {
    frame,
    paths: plan.lines.flatMap((line) =>
      line.runs.map((run) => ({
        colour: run.colour,
        d: run.coordinates
          .map(project)
          .map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x} ${point.y}`)
          .join(' '),
      })),
    ),
    marks: plan.lines.flatMap((line) =>
      line.marks.map((mark) => ({ ...project(mark.position), label: kmLabel(mark.km) })),
    ),
    arrows: plan.lines.flatMap((line) =>
      line.arrows.map((arrow) => ({ ...project(arrow.position), rotateDeg: round(arrow.bearingDeg) })),
    ),
    ...(plan.place ? { place: { ...project(plan.place.position), name: plan.place.name } } : {}),
    ends: plan.lines.flatMap((line) =>
      line.ends.map((end) => ({
        ...project(end.position),
        kind: end.kind,
        label: end.label,
        ...(end.badge === undefined ? {} : { badge: end.badge }),
      })),
    ),
  };
}
