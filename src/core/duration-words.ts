/**
 * Spans of time as riders read them, the same on the site and in the MCP
 * answers: a segment time on the clock ("42:00", "1:05:07"), and a ride or
 * what the wind gains in words, minutes and seconds padded as a clock pads
 * them ("2 h 05 min", "48 min", "1 min 05 s", "40 s"). Pure.
 */

const pad = (value: number): string => String(value).padStart(2, '0');

/** "42:00" or "1:05:07": how riders read a segment time (their record, an estimate). */
export function clockTime(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(whole % 60)}` : `${m}:${pad(whole % 60)}`;
}

/** "2 h 05 min", "48 min": a ride's length in whole minutes. */
export function minutesWords(minutes: number): string {
  const whole = Math.round(Math.abs(minutes));
  return whole >= 60 ? `${Math.floor(whole / 60)} h ${pad(whole % 60)} min` : `${whole} min`;
}

/** "2 h 05 min" from an hour up (to the minute), "1 min 05 s", "40 s"; the sign is the caller's to say. */
export function durationWords(seconds: number): string {
  const whole = Math.round(Math.abs(seconds));
  if (whole >= 3600) return minutesWords(whole / 60);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes} min ${pad(whole % 60)} s` : `${whole} s`;
}

/** "gains 43 s", "costs 1 min 53 s", "costs nothing": what the wind does to a ride, its sign in words. */
export function windGainWords(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole === 0) return 'costs nothing';
  return `${whole > 0 ? 'gains' : 'costs'} ${durationWords(whole)}`;
}
