import { HOUR_S } from '../../core/tailwind-window.ts';

/** Unix seconds to ISO 8601 UTC without milliseconds, the form every tool uses. */
export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Start of the UTC hour that contains `ms`, in unix seconds. */
export function currentHour(ms: number): number {
  return Math.floor(ms / 1000 / HOUR_S) * HOUR_S;
}
