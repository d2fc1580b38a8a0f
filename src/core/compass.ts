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
