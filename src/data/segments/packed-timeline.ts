/**
 * A segment's hour-by-hour wind packed into one Float64Array, for the winds
 * `segment-window.ts` remembers: 72 hour objects of a dozen numbers held
 * about 22 KB of heap per segment, 46 MB at the cap (decision 0018); packed
 * they take 7.5 KB outside the heap. Doubles keep every figure exactly (the
 * answers compare them, and 0.1-rounded figures are not exact in 32 bits);
 * NaN stands for null, which no figure is otherwise (validate.ts).
 */
import type { SegmentHour } from '../../core/tailwind-window.ts';
import type { WindEffect } from '../../core/wind.ts';

const EFFECTS: readonly WindEffect[] = ['tailwind', 'headwind', 'crosswind', 'calm'];

/** Numbers per hour: the twelve figures, then the effect's index plus 4 when the hour is in daylight. */
const STRIDE = 13;
const DAYLIGHT = 4;

export type PackedTimeline = Float64Array;

const orNull = (value: number): number | null => (Number.isNaN(value) ? null : value);

export function packTimeline(timeline: readonly SegmentHour[]): PackedTimeline {
  const packed = new Float64Array(timeline.length * STRIDE);
  timeline.forEach((hour, i) => {
    const figures = [
      hour.time,
      hour.tailwindKmh,
      hour.crosswindKmh,
      hour.windSpeedKmh,
      hour.windDirectionDeg,
      hour.windGustsKmh ?? NaN,
      hour.tailwindKmhRiderHeight,
      hour.crosswindKmhRiderHeight,
      hour.windSpeedKmhRiderHeight,
      hour.temperatureC ?? NaN,
      hour.precipitationMm ?? NaN,
      hour.precipitationProbabilityPct ?? NaN,
      EFFECTS.indexOf(hour.effect) + (hour.daylight ? DAYLIGHT : 0),
    ];
    packed.set(figures, i * STRIDE);
  });
  return packed;
}

/** The hours again, frozen, equal field for field to those packed; new objects on every call. */
export function unpackTimeline(packed: PackedTimeline): readonly SegmentHour[] {
  const hours: SegmentHour[] = [];
  for (let i = 0; i < packed.length / STRIDE; i++) {
    const hour = unpackHour(packed, i);
    if (hour) hours.push(hour);
  }
  return Object.freeze(hours);
}

/** Hour `i` alone (frozen), or undefined past the last: `get_segment`'s wind now needs only the first. */
export function unpackHour(packed: PackedTimeline, i: number): SegmentHour | undefined {
  const at = i * STRIDE;
  if (i < 0 || at + STRIDE > packed.length) return undefined;
  const figure = (k: number): number => packed[at + k] ?? NaN;
  const kind = figure(12);
  return Object.freeze({
    time: figure(0),
    tailwindKmh: figure(1),
    crosswindKmh: figure(2),
    effect: EFFECTS[kind % DAYLIGHT] ?? 'calm',
    windSpeedKmh: figure(3),
    windDirectionDeg: figure(4),
    windGustsKmh: orNull(figure(5)),
    tailwindKmhRiderHeight: figure(6),
    crosswindKmhRiderHeight: figure(7),
    windSpeedKmhRiderHeight: figure(8),
    temperatureC: orNull(figure(9)),
    precipitationMm: orNull(figure(10)),
    precipitationProbabilityPct: orNull(figure(11)),
    daylight: kind >= DAYLIGHT,
  });
}
