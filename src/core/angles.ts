/** Degrees to radians; kept in one place so every formula converts the same way. */
export function toRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

/** Folds any angle into [0, 360), turning `-0` into `0`. */
export function normalizeDegrees(degrees: number): number {
  const folded = degrees % 360;
  return folded < 0 ? folded + 360 : folded + 0;
}
