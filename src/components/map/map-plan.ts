import type { LonLat, MapLine, SegmentMapInput } from './map-input.ts';
import {
  arrowPoints,
  colouredRuns,
  isLoop,
  kmMarks,
  lineBounds,
  type AlongPoint,
  type ColouredRun,
} from './line-measure.ts';
import { windColour } from './wind-colour.ts';

/** A marker at an end of a line. */
export interface EndMarker {
  readonly position: LonLat;
  readonly kind: 'start' | 'finish' | 'start-finish';
  /** Words for the marker's tooltip and the screen reader. */
  readonly label: string;
  /** Shown on the marker instead of the kind's word (see `MapLine.badge`). */
  readonly badge?: string;
}

/** Everything both renderers draw for one line: MapLibre over tiles, or the plain SVG fallback. */
export interface PlannedLine {
  readonly name: string;
  readonly runs: readonly ColouredRun[];
  readonly marks: readonly AlongPoint[];
  readonly arrows: readonly AlongPoint[];
  readonly ends: readonly EndMarker[];
}

export interface MapPlan {
  readonly lines: readonly PlannedLine[];
  /** The place searched around, if any (inside `bounds`). */
  readonly place?: { readonly position: LonLat; readonly name: string };
  /** [[west, south], [east, north]], unwrapped: west < east across the antimeridian. */
  readonly bounds: readonly [LonLat, LonLat] | undefined;
}

/** The colour of part `part` of a line: its own value, the line's one value, or the unknown colour. */
function partColour(line: MapLine): (part: number) => string {
  const values = line.values ?? [];
  return (part) => windColour(values.length === 1 ? values[0] : values[part]);
}

function endsOf(line: MapLine, details: boolean): EndMarker[] {
  const first = line.coordinates[0];
  const last = line.coordinates.at(-1);
  if (!first || !last) return [];
  const badge = line.badge === undefined ? {} : { badge: line.badge };
  if (!details) return [{ position: first, kind: 'start', label: `${line.name}: start`, ...badge }];
  if (line.loop ?? isLoop(line.coordinates)) {
    return [{ position: first, kind: 'start-finish', label: `${line.name}: start and finish`, ...badge }];
  }
  return [
    { position: first, kind: 'start', label: `${line.name}: start`, ...badge },
    { position: last, kind: 'finish', label: `${line.name}: finish` },
  ];
}

/**
 * What to draw, computed once from the input: coloured runs, km marks, arrows
 * and end markers per line (marks and arrows only with `details`), and the
 * box that fits them all. Lines of fewer than two positions are left out.
 */
export function planMap(input: SegmentMapInput): MapPlan {
  const lines = input.lines.filter((line) => line.coordinates.length >= 2);
  return {
    lines: lines.map((line) => ({
      name: line.name,
      runs: colouredRuns(line.coordinates, partColour(line)),
      marks: input.details ? kmMarks(line.coordinates) : [],
      arrows: input.details ? arrowPoints(line.coordinates) : [],
      ends: endsOf(line, input.details),
    })),
    ...(input.place ? { place: input.place } : {}),
    // The place is inside the box, so the map shows where the list was searched from.
    bounds: lineBounds([
      ...lines.map((line) => line.coordinates),
      ...(input.place ? [[input.place.position]] : []),
    ]),
  };
}

/** A km mark's words: "3 km", "2.5 km". */
export function kmLabel(km: number): string {
  return `${Number(km.toFixed(1))} km`;
}
