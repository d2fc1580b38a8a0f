import { normalizeDegrees } from './angles.ts';

/** The eight compass points, clockwise from north. */
export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

export type CompassPoint = (typeof COMPASS_POINTS)[number];

/**
 * Eight 45° sectors centred on each point. A bearing exactly on a boundary
 * (22.5°, 67.5°, …) belongs to the next sector clockwise, so 22.5° is `NE`:
 * one rule, no ties, documented in the API guide.
 */
export function compassPoint(bearingDeg: number): CompassPoint {
  const sector = Math.floor(normalizeDegrees(bearingDeg + 22.5) / 45);
  return COMPASS_POINTS[sector] ?? 'N';
}

/**
 * The sixteen points, clockwise from north: the names for directions 22.5°
 * apart, such as the rows of the route calculator's tables, where eight
 * points would give two rows the same name. The API keeps its eight-point
 * `compass` fields ({@link compassPoint}).
 */
export const COMPASS_POINTS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;

export type CompassPoint16 = (typeof COMPASS_POINTS_16)[number];

/** Sixteen 22.5° sectors centred on each point; a boundary (11.25°, …) belongs to the next sector clockwise. */
export function compassPoint16(bearingDeg: number): CompassPoint16 {
  const sector = Math.floor(normalizeDegrees(bearingDeg + 11.25) / 22.5);
  return COMPASS_POINTS_16[sector] ?? 'N';
}
