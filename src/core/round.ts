/**
 * Rounds half away from zero, so a headwind is never reported with a different
 * magnitude than the mirrored tailwind, and never returns `-0` (which JSON
 * serialises as `0` but a client comparing with `Object.is` would trip on).
 */
export function roundHalfAway(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const magnitude = Math.round(Math.abs(value) * factor) / factor;
  return magnitude === 0 ? 0 : Math.sign(value) * magnitude;
}
