import { initialBearing } from '../../core/bearing.ts';
import { greatCircleM } from '../../core/distance.ts';
import { lonStep } from '../../core/route/route-geometry.ts';
import type { LonLat } from './map-input.ts';

/**
 * Measuring a line for its decorations: where the km marks and the arrows go,
 * whether it is a loop, what box shows it. Distances are the project's one
 * great-circle formula, so a km mark lands where the API's `length_km` says.
 */

/** A point along the line with the direction of travel there. */
export interface AlongPoint {
  readonly position: LonLat;
  /** Distance from the start, km. */
  readonly km: number;
  /** Direction of travel at this point, degrees clockwise from north. */
  readonly bearingDeg: number;
}

/** The ends of a loop lie within this distance of each other (metres): a segment traced by hand rarely closes exactly. */
export const LOOP_GAP_M = 150;

/** The smallest step between km marks: closer marks would sit on top of each other at a segment's zoom. */
const MIN_KM_STEP = 0.5;

function toLatLon([lon, lat]: LonLat): { lat: number; lon: number } {
  return { lat, lon };
}

/**
 * Longitudes made continuous along the line: each moves by whole turns to lie
 * within 180° of the one before, so a line across the antimeridian
 * (179.9° → −179.9°) stays a short step. MapLibre and the fallback drawing
 * both draw the unwrapped values; they may leave [−180, 180].
 */
export function unwrapLine(line: readonly LonLat[], startLon?: number): LonLat[] {
  let previous = startLon;
  return line.map(([lon, lat]) => {
    const unwrapped = previous === undefined ? lon : previous + lonStep(previous, lon);
    previous = unwrapped;
    return [unwrapped, lat] as const;
  });
}

/** Distance from the start at each position, km: as long as the line, starting at 0. */
export function cumulativeKm(line: readonly LonLat[]): number[] {
  const distances: number[] = [];
  let total = 0;
  line.forEach((position, index) => {
    const previous = line[index - 1];
    if (previous) total += greatCircleM(toLatLon(previous), toLatLon(position)) / 1000;
    distances.push(total);
  });
  return distances;
}

/** Whether the ends meet: `LOOP_GAP_M` apart or less, for a line longer than ten times that. */
export function isLoop(line: readonly LonLat[]): boolean {
  const first = line[0];
  const last = line.at(-1);
  if (!first || !last || line.length < 3) return false;
  const lengthKm = cumulativeKm(line).at(-1) ?? 0;
  return greatCircleM(toLatLon(first), toLatLon(last)) <= LOOP_GAP_M && lengthKm * 1000 > 10 * LOOP_GAP_M;
}

/**
 * The point `km` along the line (clamped to its ends), interpolated linearly
 * in unwrapped degrees within its part (fine for parts of a few km), with the
 * part's bearing. Undefined for a line of fewer than two positions.
 */
export function pointAt(line: readonly LonLat[], km: number): AlongPoint | undefined {
  if (line.length < 2) return undefined;
  const distances = cumulativeKm(line);
  const total = distances.at(-1) ?? 0;
  const target = Math.min(Math.max(km, 0), total);
  let part = 0;
  while (part < line.length - 2 && (distances[part + 1] ?? 0) < target) part += 1;
  const from = line[part] as LonLat;
  const to = line[part + 1] as LonLat;
  const partKm = (distances[part + 1] ?? 0) - (distances[part] ?? 0);
  const share = partKm > 0 ? (target - (distances[part] ?? 0)) / partKm : 0;
  const lon = from[0] + lonStep(from[0], to[0]) * share;
  const lat = from[1] + (to[1] - from[1]) * share;
  return {
    position: [lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon, lat],
    km: target,
    bearingDeg: initialBearing(toLatLon(from), toLatLon(to)),
  };
}

/**
 * The step between km marks for a line of `totalKm`: the smallest of 0.5, 1,
 * 2, 5, 10, 20, 50… km giving at most `maxMarks` marks (round steps read at
 * a glance; a step of 3.7 km would not).
 */
export function kmStep(totalKm: number, maxMarks = 8): number {
  let decade = 0.1;
  for (;;) {
    for (const factor of [1, 2, 5]) {
      const step = Math.max(MIN_KM_STEP, factor * decade);
      if (Math.floor(totalKm / step) <= Math.max(1, maxMarks)) return step;
    }
    decade *= 10;
  }
}

/**
 * The km marks: every `kmStep` km from the start, leaving out a mark closer
 * to the finish than half a step (the finish marker is there).
 */
export function kmMarks(line: readonly LonLat[], maxMarks = 8): AlongPoint[] {
  const total = cumulativeKm(line).at(-1) ?? 0;
  const step = kmStep(total, maxMarks);
  const marks: AlongPoint[] = [];
  for (let index = 1; index * step <= total - step / 2; index += 1) {
    const point = pointAt(line, index * step);
    if (point) marks.push(point);
  }
  return marks;
}

/**
 * Direction arrows at the middle of `count` equal stretches of the line, so
 * they sit between the km marks, never on the start or finish, and a loop's
 * arrows all point the way round it is ridden.
 */
export function arrowPoints(line: readonly LonLat[], count = 6): AlongPoint[] {
  const total = cumulativeKm(line).at(-1) ?? 0;
  if (total <= 0 || count <= 0) return [];
  return Array.from({ length: count }, (_, index) => pointAt(line, ((index + 0.5) / count) * total)).filter(
    (point): point is AlongPoint => point !== undefined,
  );
}

/** A box around the lines as [[west, south], [east, north]], west < east even across the antimeridian. */
export function lineBounds(lines: readonly (readonly LonLat[])[]): [LonLat, LonLat] | undefined {
  const first = lines.find((line) => line.length > 0)?.[0];
  if (!first) return undefined;
  let [west, south, east, north] = [first[0], first[1], first[0], first[1]];
  for (const line of lines) {
    // Each line is unwrapped from the first line's first longitude, so together they are continuous.
    for (const [lon, lat] of unwrapLine(line, first[0])) {
      [west, east, south, north] = [
        Math.min(west, lon),
        Math.max(east, lon),
        Math.min(south, lat),
        Math.max(north, lat),
      ];
    }
  }
  return [
    [west, south],
    [east, north],
  ];
}

/** One run of consecutive parts that share a colour: drawn as one piece. */
export interface ColouredRun {
  readonly colour: string;
  readonly coordinates: LonLat[];
}

/**
 * Consecutive parts of the same colour joined into runs, so a line of 500
 * positions with three wind bands is three pieces, not 499. The coordinates
 * are unwrapped; `colourOf(i)` is the colour of part `i`.
 */
export function colouredRuns(line: readonly LonLat[], colourOf: (part: number) => string): ColouredRun[] {
  const unwrapped = unwrapLine(line);
  const runs: ColouredRun[] = [];
  for (let part = 0; part < unwrapped.length - 1; part += 1) {
    const colour = colourOf(part);
    const last = runs.at(-1);
    if (last && last.colour === colour) last.coordinates.push(unwrapped[part + 1] as LonLat);
    else runs.push({ colour, coordinates: [unwrapped[part] as LonLat, unwrapped[part + 1] as LonLat] });
  }
  return runs;
}
