/** Seconds in one forecast step; here rather than in `tailwind-window.ts`, so a clock loads no wind maths. */
export const HOUR_S = 3600;

/** Unix seconds to ISO 8601 UTC without milliseconds: the form every answer, page and webhook uses. */
export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Start of the UTC hour that contains `nowMs`, in unix seconds: forecasts and windows count from it. */
export function hourStart(nowMs: number): number {
  return Math.floor(nowMs / 1000 / HOUR_S) * HOUR_S;
}
