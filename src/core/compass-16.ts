import { normalizeDegrees } from './angles.ts';

/**
 * The sixteen points, clockwise from north: the names for directions 22.5°
 * apart, such as the rows of the route calculator's tables, where eight
 * points would give two rows the same name. The API keeps its eight-point
 * `compass` fields (`compassPoint` in compass.ts). A module of its own so the
 * home page's eager wind chunk (astro.config.mjs) carries only the eight points it uses;
 * the sixteen load with the route calculator that needs them.
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
